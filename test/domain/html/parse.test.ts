import { parseDocument } from 'htmlparser2';
import { Element, type AnyNode } from 'domhandler';
import { textContent } from 'domutils';
import { selectAll } from 'css-select';
import { render } from 'dom-serializer';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../src/domain/html/parse.js';

/** A node as plain data: its prototype's class, its own properties in order, its children. */
function shape(node: AnyNode): unknown {
	const own = Object.entries(node).filter(([key]) => key !== 'parent' && key !== 'prev' && key !== 'next' && key !== 'children');
	return {
		proto: Object.getPrototypeOf(node).constructor.name,
		keys: Object.keys(node),
		own,
		links: [node.parent === null, node.prev === null, node.next === null],
		children: 'children' in node ? node.children.map(shape) : undefined,
	};
}

const PAGES = [
	'<!DOCTYPE html><html><head><title>Kettle &amp; cup</title><style>p { color: ' +
		'red }</style><script>var a = "<p>";</script></head><body><p class="a b">Hello <b>world</b><br>again</p></body></html>',
	'<div><!-- a comment --><!-- another --><p>one<p>two<li>three</div>text after',
	'<table><tr><td>1<td>2</table><svg viewBox="0 0 1 1"><path d="M0"/></svg><![CDATA[ x ]]><?xml version="1.0"?>',
	'<script type="application/ld+json">/*<![CDATA[*/{"@type":"Product"}/*]]>*/</script><span ' +
		'itemprop="price" content="9.99">9,99 €</span><img src=x alt="a"><input disabled>',
	'plain text &eacute; &#x263A; < not a tag',
	'',
	`<ul>${Array.from({ length: 300 }, (_, i) => `<li data-i="${i}"><a href="/p/${i}">Product ${i}</a> <span class="price">${i}.99</span></li>`).join('')}</ul>`,
];

describe('parseHtml', () => {
	it('gives the DOM parseDocument gives: the same prototypes, own properties in order, and links', () => {
		for (const html of PAGES) expect(shape(parseHtml(html)), html.slice(0, 60)).toEqual(shape(parseDocument(html)));
	});

	it('gives nodes that domutils, css-select and dom-serializer read as theirs', () => {
		const html = PAGES[0]!;
		const ours = parseHtml(html);
		const theirs = parseDocument(html);
		expect(textContent(ours)).toBe(textContent(theirs));
		expect(render(ours)).toBe(render(theirs));
		const bold = selectAll<AnyNode, Element>('p.a > b', ours);
		expect(bold).toHaveLength(1);
		expect(bold[0]).toBeInstanceOf(Element);
		expect(bold[0]!.tagName).toBe('b');
		expect(bold[0]!.parentNode).toBe(bold[0]!.parent);
		expect(bold[0]!.attributes).toEqual([]);
		expect(selectAll('script', ours)[0]!.type).toBe('script');
	});
});
