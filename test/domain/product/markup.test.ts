import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { pageFacts, scanMarkup, valueOf } from '../../../src/domain/product/markup.js';

describe('scanMarkup', () => {
	it('finds JSON-LD blocks, itemprop elements and meta elements in one walk, in page order', () => {
		const page = parseDocument(`<html><head><meta charset="utf-8"><meta property="og:title" content="t"><script>var a = 1</script>
			<script type="application/ld+json">{"a":1}</script><script type="Application/LD+JSON; charset=utf-8">{"b":2}</script></head>
			<body><span itemprop="price">5</span><meta itemprop="priceCurrency" content="EUR"><meta name="description" content="d"></body></html>`);
		const found = scanMarkup(page);
		expect(found.jsonLd).toEqual(['{"a":1}', '{"b":2}']);
		expect(found.itemprops.map((element) => element.attribs['itemprop'])).toEqual(['price', 'priceCurrency']);
		expect(found.metas.map((element) => element.attribs['property'] ?? element.attribs['name'])).toEqual(['og:title', 'description']);
	});
});

describe('valueOf', () => {
	const element = (html: string) => parseDocument(html).children[0] as Element;

	it('reads content, then a link, data or time attribute, then the text collapsed', () => {
		expect(valueOf(element('<span content="19.99">$19.99</span>'))).toEqual({ value: '19.99', text: false });
		expect(valueOf(element('<link href="https://schema.org/InStock">'))).toEqual({ value: 'https://schema.org/InStock', text: false });
		expect(valueOf(element('<a href="https://schema.org/OutOfStock">Sold out</a>'))).toEqual({ value: 'https://schema.org/OutOfStock', text: false });
		expect(valueOf(element('<data value="12">twelve</data>'))).toEqual({ value: '12', text: false });
		expect(valueOf(element('<time datetime="2026-01-01">New year</time>'))).toEqual({ value: '2026-01-01', text: false });
		expect(valueOf(element('<div>\n  Now only <b>$19.99</b>\n</div>'))).toEqual({ value: 'Now only $19.99', text: true });
	});

	it('reads the text of an element nested 10,000 deep (a recursive walk overflowed the stack)', () => {
		const page = parseDocument(`<span itemprop="price">${'<div itemscope>'.repeat(10_000)}$7.25${'</div>'.repeat(10_000)}</span>`);
		const [price] = scanMarkup(page).itemprops;
		expect(valueOf(price!)).toEqual({ value: '$7.25', text: true });
	});
});

describe('scanMarkup and pageFacts: what the page says about itself', () => {
	it("finds the canonical, og:url and og:title, the title (not an SVG icon's), the <h1>s, the cart forms and the RDFa properties", () => {
		const page = parseDocument(
			`<html><head><title>Kettle | Shop</title><link rel="canonical" href="https://shop.example/kettle"><meta property="og:url" ` +
				`content="https://shop.example/kettle?ref=og"><meta property="og:title" content="Kettle"></head>
			<body><svg><title>cart icon</title></svg><h1> Kettle
			2000 </h1><form action="/search"></form><form action="/cart/add" method="post"></form><form class="cart" method="post"></form><span ` +
				`property="price">5</span></body></html>`,
		);
		const markup = scanMarkup(page);
		expect(markup.properties.map((element) => element.attribs['property'])).toEqual(['og:url', 'og:title', 'price']);
		const facts = pageFacts(markup, 'https://shop.example/kettle?variant=1');
		expect({ ...facts, h1s: facts.h1s.length, carts: facts.carts.map((form) => form.attribs['action'] ?? form.attribs['class']) }).toEqual({
			url: 'https://shop.example/kettle?variant=1',
			canonical: ['https://shop.example/kettle', 'https://shop.example/kettle?ref=og'],
			titles: ['Kettle', 'Kettle | Shop', 'Kettle 2000'],
			h1s: 1,
			carts: ['/cart/add', 'cart'],
		});
	});
});
