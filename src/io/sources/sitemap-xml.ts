/** One `<url>` or `<sitemap>` entry of a sitemap document. */
export interface SitemapEntry {
	loc: string;
	lastmod?: string;
	/** 1-based line of the entry in the document. */
	line: number;
}

export interface SitemapDocument {
	/** `urlset` (page URLs), `sitemapindex` (more sitemaps), or neither (not a sitemap). */
	kind: 'urlset' | 'sitemapindex' | 'unknown';
	entries: SitemapEntry[];
}

const NAME = '(?:[A-Za-z_][\\w.-]*:)?';

/**
 * Reads the entries of a sitemap or sitemap index (sitemaps.org 0.9): each entry's
 * `<loc>` and `<lastmod>`, entity-decoded, CDATA allowed, namespace prefixes allowed,
 * extension elements (`<image:loc>`, `<xhtml:link>`) ignored. Not a general XML parser:
 * it reads what the protocol allows a sitemap to hold.
 *
 * @example
 * parseSitemap('<urlset><url><loc>https://example.org/</loc><lastmod>2024-05-01</lastmod></url></urlset>')
 * // { kind: 'urlset', entries: [{ loc: 'https://example.org/', lastmod: '2024-05-01', line: 1 }] }
 */
export function parseSitemap(xml: string): SitemapDocument {
	// Comments go, but their newlines stay so line numbers still match the document.
	const text = xml.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));
	const root = new RegExp(`<(${NAME})(urlset|sitemapindex)[\\s>/]`).exec(text);
	if (!root) return { kind: 'unknown', entries: [] };
	const [, prefix, kind] = root as unknown as [string, string, 'urlset' | 'sitemapindex'];
	const element = kind === 'urlset' ? 'url' : 'sitemap';
	const entries: SitemapEntry[] = [];
	const pattern = new RegExp(`<${escape(prefix)}${element}(?:\\s[^>]*)?>([\\s\\S]*?)</${escape(prefix)}${element}\\s*>`, 'g');
	let line = 1;
	let counted = 0;
	for (const match of text.matchAll(pattern)) {
		line += countNewlines(text, counted, match.index);
		counted = match.index;
		const body = match[1]!;
		const loc = child(body, prefix, 'loc');
		if (loc === undefined) continue;
		const lastmod = child(body, prefix, 'lastmod');
		entries.push(lastmod === undefined ? { loc, line } : { loc, lastmod, line });
	}
	return { kind, entries };
}

function child(body: string, prefix: string, name: string): string | undefined {
	const match = new RegExp(`<${escape(prefix)}${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${escape(prefix)}${name}\\s*>`).exec(body);
	return match ? decode(match[1]!).trim() : undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character data: CDATA as is, entities and character references decoded. */
function decode(text: string): string {
	return text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, cdata: string | undefined, entity: string | undefined) => {
		if (cdata !== undefined) return cdata;
		if (entity!.startsWith('#')) {
			const code = entity!.startsWith('#x') || entity!.startsWith('#X') ? parseInt(entity!.slice(2), 16) : parseInt(entity!.slice(1), 10);
			return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
		}
		return ENTITIES[entity!] ?? whole;
	});
}

function countNewlines(text: string, from: number, to: number): number {
	let count = 0;
	for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count++;
	return count;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
