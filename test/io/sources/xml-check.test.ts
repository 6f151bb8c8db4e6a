import { describe, expect, it } from 'vitest';
import { whatItIs, xmlProblem } from '../../../src/io/sources/xml-check.js';

const SITEMAP = [
	'<?xml version="1.0" encoding="UTF-8"?>',
	'<!-- generated -->',
	'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
	'  <url><loc>https://example.org/a?x=1&amp;y=2</loc><lastmod>2024-05-01</lastmod></url>',
	'  <url><loc><![CDATA[https://example.org/b<c>]]></loc><image:image><image:loc>https://example.org/i.png</image:loc></image:image></url>',
	'  <url><loc>https://example.org/c</loc><extra attr="a > b" other=\'/>\'/></url>',
	'</urlset>',
	'',
].join('\n');

describe('xmlProblem', () => {
	it('finds nothing wrong in a whole sitemap: declaration, comments, CDATA, prefixes, quoted > and self-closing tags', () => {
		expect(xmlProblem(SITEMAP)).toBeUndefined();
		expect(xmlProblem(`\uFEFF${SITEMAP}<!-- after -->\n`)).toBeUndefined();
		expect(xmlProblem('<!DOCTYPE urlset [ <!ENTITY e "x"> ]><urlset/>')).toBeUndefined();
	});

	it('says a sitemap cut off mid-file is cut short, naming the line it ends on and what is left open', () => {
		const cut = SITEMAP.slice(0, SITEMAP.indexOf('https://example.org/c') + 10);
		expect(xmlProblem(cut)).toBe('cut short: it ends on line 6 inside <loc> (line 6), <url> (line 6), <urlset> (line 3)');
		// Between entries, inside a tag, a comment or a CDATA section: cut short every time.
		expect(xmlProblem(SITEMAP.slice(0, SITEMAP.indexOf('</urlset>')))).toMatch(/^cut short: it ends on line 7 inside <urlset> \(line 3\)$/);
		expect(xmlProblem(SITEMAP.slice(0, SITEMAP.indexOf('</urlset>') + 4))).toBe('cut short: it ends inside a tag begun on line 7');
		expect(xmlProblem('<urlset><!-- a comm')).toBe('cut short: it ends inside a comment begun on line 1');
		expect(xmlProblem('<urlset><url><loc><![CDATA[https://e')).toBe('cut short: it ends inside a CDATA section begun on line 1');
	});

	it('names misnested and stray end tags, a second root, text after the root, and an empty document', () => {
		expect(xmlProblem('<urlset>\n<url><loc>x</url></loc></urlset>')).toBe('</url> on line 2 closes <loc> (line 2)');
		expect(xmlProblem('<urlset></urlset></urlset>')).toBe('</urlset> on line 1 closes nothing');
		expect(xmlProblem('<urlset/>\n<urlset/>')).toBe('a second root element <urlset> on line 2');
		expect(xmlProblem('<urlset/>\n\ntrailing')).toBe('text outside the root element on line 3');
		expect(xmlProblem('   ')).toBe('no root element');
	});
});

describe('whatItIs', () => {
	it('tells an empty document, an HTML page, JSON, other XML and text apart', () => {
		expect(whatItIs(' \n')).toBe('the document is empty');
		expect(whatItIs('<!DOCTYPE html>\n<html><body>Not found</body></html>')).toBe('an HTML page');
		expect(whatItIs('<html lang="en">')).toBe('an HTML page');
		expect(whatItIs('{"urls": []}')).toBe('JSON, not XML');
		expect(whatItIs('<?xml version="1.0"?>\n<!-- feed -->\n<rss version="2.0"><channel/></rss>')).toBe('XML whose root element is <rss>');
		expect(whatItIs('https://example.org/a\nhttps://example.org/b\n')).toBe('not XML: it begins "https://example.org/a\\nhttps://example.or"');
	});
});
