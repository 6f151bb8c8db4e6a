import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { scanMarkup } from '../../../src/domain/product/markup.js';
import { readOffer } from '../../../src/domain/product/offer.js';
import { parseWithMarkup } from '../../../src/domain/product/parse.js';

const page =
	`<!doctype html><html lang="de-DE"><head><title>Kessel | Shop</title><link rel="canonical" href="https://shop.example/p/1">
<meta property="og:title" content="Kessel"><script type="application/ld+json">{"@type":"Product","name":"Kessel","offers":{"price":"39.99",` +
	`"priceCurrency":"EUR"}}</script></head>
<body><svg><title>icon</title></svg><main itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Kessel</h1>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="39.99">39,99 €</span><link itemprop="availability" ` +
	`href="https://schema.org/InStock"></div>
<form action="/cart/add"><button>In den Warenkorb</button></form></main><div vocab="https://schema.org/" typeof="Product"><span property="name">` +
	`Other</span></div></body></html>`;

/** The elements of a Markup by their tag and attributes, so that two parses of one page compare. */
const shown = (markup: ReturnType<typeof scanMarkup>) =>
	JSON.stringify(markup, (key, value) => (value && typeof value === 'object' && 'attribs' in value ? `${value.name} ${JSON.stringify(value.attribs)}` : value));

describe('parseWithMarkup', () => {
	it('finds while parsing the markup that a walk of the parsed page finds, in the same order', () => {
		const { document, markup } = parseWithMarkup(page);
		expect(shown(markup)).toBe(shown(scanMarkup(parseDocument(page))));
		expect(markup.title).toBe('Kessel | Shop');
		expect(markup.jsonLd).toHaveLength(1);
		expect(markup.itemscopes).toHaveLength(2);
		expect(markup.carts).toHaveLength(1);
		expect(readOffer(document, {}, markup)).toEqual(readOffer(parseDocument(page)));
	});

	it("marks only the element whose own attributes say so, where the parser drops a tag's attributes or makes a tag without any", () => {
		// A second <form> inside one is dropped with its attributes; </br> and </p> open tags of no attributes.
		const page =
			'<form action="/cart/add"><form itemprop="offers" itemscope><span>a</span></form></form><p ' +
			'itemprop="name">x</br></p></p><meta property="og:title" content="T"><b>y</b>';
		const { markup } = parseWithMarkup(page);
		expect(shown(markup)).toBe(shown(scanMarkup(parseDocument(page))));
		expect(markup.itemprops.map((element) => element.name)).toEqual(['p']);
	});
});
