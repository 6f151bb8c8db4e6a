import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { Attributes, NAMED, nameFlags } from '../../../../src/domain/product/page/names.js';
import { ELSEWHERE_NAME, PRICE_NAME, REGULAR_NAME, STOCK_NAME, STRUCK_NAME } from '../../../../src/domain/product/page/words.js';

const element = (html: string) => parseDocument(html).children[0] as Element;

describe('Attributes', () => {
	it('reads the attributes the page scan asks of an element, and forgets the last element', () => {
		const attributes = new Attributes();
		const read = attributes.read(
			element('<span class="price" id="p1" role="note" itemprop="price" data-testid="cost" style="color:red" aria-hidden="true" hidden title="x">'),
		);
		expect({ ...read }).toEqual({
			class: 'price',
			id: 'p1',
			role: 'note',
			itemprop: 'price',
			test: 'cost',
			style: 'color:red',
			ariaHidden: 'true',
			hidden: true,
		});
		expect({ ...attributes.read(element('<b>')) }).toEqual({
			class: undefined,
			id: undefined,
			role: undefined,
			itemprop: undefined,
			test: undefined,
			style: undefined,
			ariaHidden: undefined,
			hidden: false,
		});
	});
});

describe('nameFlags', () => {
	// What the scan tested before: the names joined with spaces, each pattern on the whole.
	const joined = (html: string) => {
		const { class: classes, id, itemprop, 'data-testid': test } = element(html).attribs;
		const block = classes === undefined ? (id ?? '') : id === undefined ? classes : `${classes} ${id}`;
		const names = `${classes ?? ''} ${id ?? ''} ${itemprop ?? ''} ${test ?? ''}`;
		return (
			(ELSEWHERE_NAME.test(block) ? NAMED.elsewhere : 0) |
			(STRUCK_NAME.test(block) ? NAMED.struck : 0) |
			(REGULAR_NAME.test(block) ? NAMED.regular : 0) |
			(PRICE_NAME.test(names) ? NAMED.price : 0) |
			(STOCK_NAME.test(names) ? NAMED.stock : 0)
		);
	};

	it('says what testing the names joined said, each name tested on its own', () => {
		for (const html of [
			'<span class="price old-price">',
			'<div class="related-products" id="recs">',
			'<s class="x" id="was">',
			'<span class="foo was" id="x">',
			'<span class="was" id="price">',
			'<p class="product-info__stock" itemprop="availability">',
			'<span itemprop="price" data-testid="regular-price">',
			'<div class="regular-price compare-at">',
			'<div id="also-bought">',
			'<div class="col-md-6 clearfix">',
			'<span class="Preis">',
			'<span class="наличие">',
			'<div>',
		]) {
			expect(nameFlags(new Attributes().read(element(html))), html).toBe(joined(html));
		}
		expect(nameFlags(new Attributes().read(element('<span class="price old-price">')))).toBe(NAMED.struck | NAMED.price);
	});
});
