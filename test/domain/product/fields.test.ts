import { describe, expect, it } from 'vitest';
import { offerChange, offerFields, offerMoved } from '../../../src/domain/product/fields.js';

describe('offerMoved', () => {
	it('names the price first, then the availability', () => {
		expect(offerMoved({ price: 24.5, availability: 'InStock' }, { price: 21, availability: 'OutOfStock' })).toBe('price');
		expect(offerMoved({ price: 21, currency: 'EUR' }, { price: 21, currency: 'USD' })).toBe('price');
		expect(offerMoved({ price: 21, availability: 'InStock' }, { price: 21, availability: 'OutOfStock' })).toBe('availability');
		expect(offerMoved({ price: 21 }, { price: 21 })).toBe('new-body');
	});
});

describe('offerFields', () => {
	it('carries the offer, its count of prices, and the offer before whenever there was one', () => {
		expect(offerFields({ from: 'json-ld', price: 21, currency: 'EUR', prices: 3 }, { price: 24.5, currency: 'EUR' })).toEqual({
			product: { price: 21, currency: 'EUR', prices: 3, source: 'json-ld' },
			previous: { price: 24.5, currency: 'EUR' },
		});
		expect(offerFields({ from: 'microdata', price: 21, currency: 'EUR' }, { price: 21, currency: 'EUR' })).toEqual({
			product: { price: 21, currency: 'EUR', source: 'microdata' },
			previous: { price: 21, currency: 'EUR' },
		});
		expect(offerFields({ from: 'opengraph', availability: 'InStock' }, undefined)).toEqual({ product: { availability: 'InStock', source: 'opengraph' } });
		expect(offerFields({ from: 'json-ld', price: 39.99, listPrice: 59.99, currency: 'USD' }, undefined)).toEqual({
			product: { price: 39.99, listPrice: 59.99, currency: 'USD', source: 'json-ld' },
		});
	});
});

describe('offerChange', () => {
	it('says what moved, before and after', () => {
		expect(offerChange({ price: 21, currency: 'EUR', availability: 'InStock' }, { price: 24.5, currency: 'EUR', availability: 'InStock' })).toBe(
			'price 24.5 EUR → 21 EUR, availability InStock',
		);
		expect(offerChange({ price: 21, availability: 'InStock' }, { price: 21, availability: 'OutOfStock' })).toBe('price 21, availability OutOfStock → InStock');
		expect(offerChange({ price: 9.99, currency: 'USD' })).toBe('price 9.99 USD');
	});
});
