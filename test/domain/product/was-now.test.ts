import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { selectOne } from 'css-select';
import { describe, expect, it } from 'vitest';
import { shownPrice, splitStruck, struck, wasNow } from '../../../src/domain/product/was-now.js';

const at = (html: string, selector: string) => selectOne<AnyNode, Element>(selector, parseDocument(html)) as Element;

describe('wasNow', () => {
	it.each([
		['Was $59.99 Now $39.99', 39.99, 59.99],
		['Regular price $59.99 Sale price $39.99', 39.99, 59.99],
		['$39.99 (was $59.99)', 39.99, 59.99],
		['UVP 99,00 € jetzt 79,00 €', 79, 99],
		['statt 1.299,00 € nur 999,00 €', 999, 1299],
		['Prix barré 45,00 € Prix 30,00 €', 30, 45],
		['List Price: $120.00 Price: $89.95', 89.95, 120],
		['Original price was: $59.99. Current price is: $39.99.', 39.99, 59.99],
	])('%s: the price now and the list price', (text, price, listPrice) => {
		const read = wasNow(text);
		expect(read?.price.amount).toBe(price);
		expect(read?.listPrice?.amount).toBe(listPrice);
	});

	it('keeps the currency of a price written after its number', () => {
		expect(wasNow('UVP 99,00 € jetzt 79,00 €')).toEqual({ price: { amount: 79, currency: 'EUR' }, listPrice: { amount: 99, currency: 'EUR' } });
	});

	it('gives the only price called former as the price ("Regular price", as a theme labels a price not on sale)', () => {
		expect(wasNow('Regular price $39.99 USD')).toEqual({ price: { amount: 39.99, currency: 'USD' } });
	});

	it('says nothing of a text that calls no price former', () => {
		expect(wasNow('$39.99')).toBeUndefined();
		expect(wasNow('Now only $19.99!')).toBeUndefined();
		expect(wasNow('Was great')).toBeUndefined();
	});
});

describe('struck and splitStruck', () => {
	it('finds a price struck through by its tag, its style or its class, a few levels up', () => {
		expect(struck(at('<del><span class="amount"><bdi>$59.99</bdi></span></del>', 'bdi'))).toBe('tag');
		expect(struck(at('<s class="price-item price-item--regular">$59.99</s>', 's'))).toBe('tag');
		expect(struck(at('<span style="text-decoration: line-through">59</span>', 'span'))).toBe('tag');
		expect(struck(at('<span class="old-price"><span class="price-container"><span class="price">$45</span></span></span>', '.price'))).toBe('class');
		expect(struck(at('<span data-price-type="oldPrice" class="price-wrapper"><span class="price">$45</span></span>', '.price'))).toBe('class');
		expect(struck(at('<div class="compare-at-price">$45</div>', 'div'))).toBe('class');
		expect(struck(at('<div class="product-price"><span class="price">$45</span></div>', '.price'))).toBeUndefined();
		// Not past the item the price is of.
		const document = parseDocument('<del><div itemscope><span itemprop="price">5</span></div></del>');
		expect(struck(selectOne<AnyNode, Element>('span', document) as Element, selectOne<AnyNode, Element>('div', document) as Element)).toBeUndefined();
	});

	it('splits a WooCommerce sale price into the struck price and the rest', () => {
		const p = at(
			'<p class="price"><del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">' +
				'$</span>59.99</bdi></span></del> <ins><span class="amount"><bdi><span>$</span>39.99</bdi></span></ins></p>',
			'p',
		);
		expect(splitStruck(p)).toEqual({ current: '$39.99', struck: '$59.99' });
	});

	it('reads an element nested 10,000 deep without overflowing the stack', () => {
		const p = at(`<p>${'<span>'.repeat(10_000)}$7${'</span>'.repeat(10_000)}</p>`, 'p');
		expect(splitStruck(p).current).toBe('$7');
	});
});

describe('shownPrice', () => {
	it('gives the price now and the list price of each was/now form', () => {
		const price = (html: string) => {
			const shown = shownPrice(at(html, '.price'), null);
			return [shown.price?.amount, shown.listPrice?.amount];
		};
		expect(price('<p class="price"><del>$59.99</del> <ins>$39.99</ins></p>')).toEqual([39.99, 59.99]);
		expect(price('<p class="price"><s>$59.99</s> $39.99</p>')).toEqual([39.99, 59.99]);
		expect(price('<p class="price"><strike>59,99 €</strike> 39,99 €</p>')).toEqual([39.99, 59.99]);
		expect(price('<p class="price"><span class="was">$59.99</span> <span class="now">$39.99</span></p>')).toEqual([39.99, 59.99]);
		expect(price('<p class="price">Was $59.99 Now $39.99</p>')).toEqual([39.99, 59.99]);
		expect(price('<del><span class="price">$59.99</span></del>')).toEqual([undefined, 59.99]);
		expect(price('<p class="price">$39.99</p>')).toEqual([39.99, undefined]);
	});
});
