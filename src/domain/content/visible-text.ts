import type { AnyNode, Element } from 'domhandler';
import { parseHtml } from '../html/parse.js';

/** Elements whose content a reader never sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'iframe', 'object']);

/** Elements that start a line of their own: a reader sees them as separate blocks. */
const BLOCK = new Set([
	'address',
	'article',
	'aside',
	'blockquote',
	'body',
	'br',
	'caption',
	'dd',
	'details',
	'dialog',
	'div',
	'dl',
	'dt',
	'fieldset',
	'figcaption',
	'figure',
	'footer',
	'form',
	'h1',
	'h2',
	'h3',
	'h4',
	'h5',
	'h6',
	'header',
	'hr',
	'li',
	'main',
	'nav',
	'ol',
	'option',
	'p',
	'pre',
	'section',
	'summary',
	'table',
	'tbody',
	'td',
	'tfoot',
	'th',
	'thead',
	'tr',
	'ul',
]);

/**
 * The text of an HTML page as a reader sees it, one block a line: headings, paragraphs,
 * list items, table cells, link text, and images' alt text (in brackets); scripts,
 * styles and the head left out, runs of whitespace made one space. What `revisit report`
 * diffs for an HTML page without a content rule: a word diff of it shows the words a
 * reader sees change, not the markup around them. The page's title is the first line.
 *
 * @example
 * visibleText('<h1>News</h1><p>Rain <a href="/x">today</a></p><script>x()</script>') // 'News\nRain today'
 */
export function visibleText(html: string): string {
	return visibleTextOf(parseHtml(html));
}

/**
 * `visibleText` of a page parsed already (domain/html/parse.ts), for a caller that walks it again.
 *
 * @example
 * visibleTextOf(parseHtml('<h1>News</h1>')) // 'News'
 */
export function visibleTextOf(document: AnyNode): string {
	const lines: string[] = [];
	let line = '';
	const breakLine = (): void => {
		const text = line.replace(/\s+/g, ' ').trim();
		if (text !== '') lines.push(text);
		line = '';
	};
	const title = findTitle(document);
	if (title !== undefined) {
		line = title;
		breakLine();
	}
	const walk = (node: AnyNode): void => {
		if (node.type === 'text') {
			line += (node as unknown as { data: string }).data;
			return;
		}
		const element = node as Element;
		const name = element.name?.toLowerCase();
		if (name !== undefined && HIDDEN.has(name)) return;
		if (name === 'img' || (name === 'input' && element.attribs['type'] === 'image')) {
			const alt = element.attribs['alt']?.trim();
			if (alt) line += ` [${alt}] `;
			return;
		}
		const block = name !== undefined && BLOCK.has(name);
		if (block) breakLine();
		for (const child of element.children ?? []) walk(child);
		if (block) breakLine();
	};
	walk(document);
	breakLine();
	return lines.join('\n');
}

function findTitle(node: AnyNode): string | undefined {
	const element = node as Element;
	if (element.name === 'title') return (element.children ?? []).map((child) => (child as unknown as { data?: string }).data ?? '').join('');
	if (element.name === 'body') return undefined;
	for (const child of element.children ?? []) {
		const found = findTitle(child);
		if (found !== undefined) return found;
	}
	return undefined;
}

/** An HTML body by its Content-Type (or, without one, by its first character). */
export const isHtml = (contentType: string | undefined, body: string): boolean => {
	const type = (contentType ?? '').toLowerCase();
	return /html/.test(type) || (type === '' && /^\s*</.test(body));
};
