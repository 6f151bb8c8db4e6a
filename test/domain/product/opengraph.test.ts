import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { scanMarkup } from '../../../src/domain/product/markup.js';
import { openGraphFound } from '../../../src/domain/product/opengraph.js';

const read = (head: string) => openGraphFound(scanMarkup(parseDocument(`<html><head>${head}</head><body></body></html>`)).metas);

describe('openGraphFound', () => {
	it('reads product:price:amount, product:price:currency and product:availability as one offer', () => {
		expect(
			read(
				'<meta property="og:type" content="product"><meta property="product:price:amount" content="19.99"><meta ' +
					'property="product:price:currency" content="usd"><meta property="product:availability" content="in stock">',
			),
		).toEqual([
			{
				from: 'opengraph',
				where: 'meta product:price:amount',
				price: 19.99,
				currency: 'USD',
				availability: 'InStock',
				written: { price: '19.99', currency: 'usd', availability: 'in stock' },
			},
		]);
	});

	it('reads the og: forms shops also write, and name= for property=', () => {
		expect(
			read(
				'<meta property="og:price:amount" content="1.299,00"><meta property="og:price:currency" content="EUR"><meta property="og:availability" content="oos">',
			),
		).toEqual([
			{
				from: 'opengraph',
				where: 'meta og:price:amount',
				price: 1299,
				currency: 'EUR',
				availability: 'OutOfStock',
				written: { price: '1.299,00', currency: 'EUR', availability: 'oos' },
			},
		]);
		expect(read('<meta name="product:price:amount" content="5">')[0]?.price).toBe(5);
	});

	it('reads no currency that is no ISO 4217 code, and names the problem', () => {
		expect(read('<meta property="product:price:amount" content="19.99"><meta property="product:price:currency" content="EUR&#x1b;[2J">')).toEqual([
			{
				from: 'opengraph',
				where: 'meta product:price:amount',
				price: 19.99,
				written: { price: '19.99', currency: 'EUR\x1b[2J' },
				currencyProblem: 'currency "EUR\\u001b[2J" is no ISO 4217 code: not read',
			},
		]);
	});

	it('prefers the product: form to the og: one', () => {
		expect(read('<meta property="og:price:amount" content="9"><meta property="product:price:amount" content="8">')[0]?.price).toBe(8);
	});

	it('gives an availability alone', () => {
		expect(read('<meta property="product:availability" content="preorder">')).toEqual([
			{ from: 'opengraph', where: 'meta product:availability', availability: 'PreOrder', written: { availability: 'preorder' } },
		]);
	});

	it('finds nothing without a price or an availability', () => {
		expect(
			read(
				'<meta property="og:title" content="Kettle $5"><meta property="product:price:currency" content="EUR"><meta property="product:price:amount" content="">',
			),
		).toEqual([]);
	});
});

describe('openGraphFound on what shops write besides the standard', () => {
	it('reads product:price and og:price, with text ("30,000원~") parsed', () => {
		expect(read('<meta property="product:price" content="30,000원~">')[0]).toMatchObject({ where: 'meta product:price', price: 30000, currency: 'KRW' });
		expect(read('<meta property="og:price" content="1 299,00 руб.">')[0]).toMatchObject({ price: 1299, currency: 'RUB' });
		expect(read('<meta property="og:price:amount" content="19.99"><meta property="og:price:currency" content="RUR">')[0]).toMatchObject({
			price: 19.99,
			currency: 'RUB',
		});
	});

	it('reads a sale price as the price, and the price beside it as the list price', () => {
		expect(
			read(
				'<meta property="product:price:amount" content="59.99"><meta property="product:sale_price:amount" ' +
					'content="39.99"><meta property="product:price:currency" content="USD">',
			)[0],
		).toMatchObject({ price: 39.99, listPrice: 59.99, currency: 'USD' });
		expect(read('<meta property="product:price:amount" content="39.99"><meta property="product:original_price:amount" content="59.99">')[0]).toMatchObject({
			price: 39.99,
			listPrice: 59.99,
		});
	});
});
