import { compile } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { RevisitError } from '../../src/errors/index.js';
import { parsePrice } from '../../src/product/price.js';
import { selectorFound } from '../../src/product/selectors.js';

/** The currency the price parser names in `text`, if any, as an offer carries it (the parser is another part's, and grows). */
const named = (text: string) => {
	const currency = parsePrice(text)?.currency;
	return currency === undefined ? {} : { currency };
};

const page = parseDocument(`<main><div class="teaser"><span class="price">was</span></div>
	<div class="product"><span class="price">Now only $19.99!</span><p class="stock">Availability: <b>Sold out</b></p></div>
	<aside><span class="price">$4.99</span><p class="stock">In stock</p></aside></main>`);

describe('selectorFound', () => {
	it("reads the first matching element whose text holds a price or says an availability", () => {
		expect(selectorFound(page, { price: '.price', availability: '.stock' })).toEqual([
			{ from: 'selector', where: 'selector .price', price: 19.99, ...named('Now only $19.99!'), written: { price: 'Now only $19.99!' } },
			{ from: 'selector', where: 'selector .stock', availability: 'SoldOut', written: { availability: 'Availability: Sold out' } },
		]);
	});

	it('tries the selectors of a list in order, and takes compiled ones', () => {
		const compiled = { source: '.product .price', test: compile<AnyNode, Element>('.product .price') };
		expect(selectorFound(page, { price: ['.missing', compiled] })[0]?.where).toBe('selector .product .price');
		expect(selectorFound(page, { price: ['aside .price'] })[0]?.price).toBe(4.99);
	});

	it('reads content and href before the text', () => {
		const document = parseDocument('<span class="p" content="7.50">seven fifty</span><a class="s" href="https://schema.org/InStock">see stock</a>');
		expect(selectorFound(document, { price: '.p', availability: '.s' }).map((found) => found.price ?? found.availability)).toEqual([7.5, 'InStock']);
	});

	it('finds nothing without selectors, or where they match nothing readable', () => {
		expect(selectorFound(page, {})).toEqual([]);
		expect(selectorFound(page, { price: '.stock', availability: '.teaser' })).toEqual([]);
	});

	it('says which selector is not CSS, as a usage error', () => {
		expect(() => selectorFound(page, { price: '.price[' })).toThrow(RevisitError);
		expect(() => selectorFound(page, { price: '.price[' })).toThrow(/"\.price\[" is not a CSS selector/);
	});
});
