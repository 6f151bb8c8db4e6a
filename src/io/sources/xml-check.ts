/**
 * Whether an XML document is whole and well nested: every element closed, in order, one
 * root, nothing but comments and processing instructions after it, no tag, comment or
 * CDATA section left open. Returns what is wrong, with its line, or undefined when the
 * document is fine. A sitemap cut off mid-file (a dropped connection, a full disk on the
 * server) fails here where a lenient reader would quietly lose its last URLs. Entities and
 * names are not checked: the aim is a document that ends where it should.
 *
 * @example
 * xmlProblem('<urlset><url><loc>https://example.org/</loc></url></urlset>') // undefined
 * xmlProblem('<urlset>\n<url><loc>https://exa') // 'cut short: it ends on line 2 inside <loc> (line 2), <url> (line 2), <urlset> (line 1)'
 */
export function xmlProblem(xml: string): string | undefined {
	const text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
	const lines = lineCounter(text);
	const open: Array<{ name: string; at: number }> = [];
	let rootSeen = false;
	let i = 0;
	for (;;) {
		const lt = text.indexOf('<', i);
		if (open.length === 0) {
			const stray = text.slice(i, lt === -1 ? text.length : lt).search(/\S/);
			if (stray !== -1) return `text outside the root element on line ${lines(i + stray)}`;
		}
		if (lt === -1) break;
		const closing = (token: string, what: string): number => {
			const end = text.indexOf(token, lt);
			if (end === -1) throw new Cut(`cut short: it ends inside ${what} begun on line ${lines(lt)}`);
			return end + token.length;
		};
		try {
			if (text.startsWith('<!--', lt)) i = closing('-->', 'a comment');
			else if (text.startsWith('<![CDATA[', lt)) i = closing(']]>', 'a CDATA section');
			else if (text.startsWith('<?', lt)) i = closing('?>', 'a processing instruction');
			else if (text.startsWith('<!', lt)) i = closing(text.lastIndexOf('[', text.indexOf('>', lt)) > lt ? ']>' : '>', 'a declaration');
			else {
				const end = tagEnd(text, lt);
				if (end === -1) throw new Cut(`cut short: it ends inside a tag begun on line ${lines(lt)}`);
				const tag = text.slice(lt + 1, end);
				i = end + 1;
				if (tag.startsWith('/')) {
					const name = tag.slice(1).trim();
					const top = open.pop();
					if (!top) return `</${name}> on line ${lines(lt)} closes nothing`;
					if (top.name !== name) return `</${name}> on line ${lines(lt)} closes <${top.name}> (line ${lines(top.at)})`;
					continue;
				}
				const name = /^[^\s/>]+/.exec(tag)?.[0];
				if (name === undefined) return `a "<" that starts no tag on line ${lines(lt)}`;
				if (open.length === 0 && rootSeen) return `a second root element <${name}> on line ${lines(lt)}`;
				rootSeen = true;
				if (!tag.endsWith('/')) open.push({ name, at: lt });
			}
		} catch (error) {
			if (error instanceof Cut) return error.message;
			throw error;
		}
	}
	if (open.length > 0) {
		const inside = open
			.reverse()
			.map((element) => `<${element.name}> (line ${lines(element.at)})`)
			.join(', ');
		return `cut short: it ends on line ${lines(text.length)} inside ${inside}`;
	}
	if (!rootSeen) return 'no root element';
	return undefined;
}

/**
 * What a document that is not a sitemap is, in a few words: empty, an HTML page, JSON,
 * other XML (by its root element), or not XML (by how it begins).
 *
 * @example
 * whatItIs('<!doctype html><html>...') // 'an HTML page'
 * whatItIs('<?xml version="1.0"?><rss version="2.0">') // 'XML whose root element is <rss>'
 */
export function whatItIs(text: string): string {
	const start = text.replace(/^\uFEFF/, '').trimStart();
	if (start === '') return 'the document is empty';
	if (/^<!doctype\s+html[\s>]/i.test(start) || /^<html[\s>]/i.test(start)) return 'an HTML page';
	if (start.startsWith('{') || start.startsWith('[')) return 'JSON, not XML';
	if (start.startsWith('<')) {
		const root = /<([A-Za-z_][\w.:-]*)[\s/>]/.exec(start.replace(/<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<![^>]*>/g, ''))?.[1];
		if (root?.toLowerCase() === 'html') return 'an HTML page';
		if (root !== undefined) return `XML whose root element is <${root}>`;
	}
	return `not XML: it begins ${JSON.stringify(start.slice(0, 40))}`;
}

class Cut extends Error {}

/** Where a start or end tag beginning at `lt` ends (its `>`), skipping quoted attribute values; -1 when the text ends first. */
function tagEnd(text: string, lt: number): number {
	let quote: string | undefined;
	for (let j = lt + 1; j < text.length; j++) {
		const c = text[j];
		if (quote !== undefined) {
			if (c === quote) quote = undefined;
		} else if (c === '"' || c === "'") quote = c;
		else if (c === '>') return j;
	}
	return -1;
}

/** Line numbers of offsets, counted once forward (offsets are asked in increasing order, mostly). */
function lineCounter(text: string): (offset: number) => number {
	let at = 0;
	let line = 1;
	return (offset) => {
		if (offset < at) {
			at = 0;
			line = 1;
		}
		for (let k = text.indexOf('\n', at); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) line++;
		at = offset;
		return line;
	};
}
