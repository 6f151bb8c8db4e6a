import { describe, expect, it } from 'vitest';
import { field, named, parseBlock, scalar, specifications, typesOf } from '../../../src/domain/product/json-ld-values.js';

describe('scalar', () => {
	it('gives the value however it is wrapped, never an object', () => {
		expect(scalar('19.99')).toBe('19.99');
		expect(scalar(19.99)).toBe(19.99);
		expect(scalar({ '@value': '19.99' })).toBe('19.99');
		expect(scalar({ '@type': 'PriceSpecification', price: 15 })).toBe(15);
		expect(scalar(['', '24.00', '26.00'])).toBe('24.00');
		expect(scalar({ nothing: 'here' })).toBeUndefined();
		expect(scalar('  ')).toBeUndefined();
		expect(scalar(null)).toBeUndefined();
	});
});

describe('specifications', () => {
	it('parts the price asked from the list price, by priceType', () => {
		expect(specifications([{ priceType: 'https://schema.org/ListPrice', price: 99, priceCurrency: 'EUR' }, { price: 79 }])).toEqual({
			price: 79,
			listPrice: 99,
			priceCurrency: 'EUR',
		});
		expect(specifications({ priceType: 'https://schema.org/StrikethroughPrice', price: '59.99' })).toEqual({ listPrice: '59.99' });
		expect(specifications({ priceType: 'SRP', price: 10 })).toEqual({ listPrice: 10 });
		expect(specifications({ priceType: 'https://schema.org/InvoicePrice', price: 10 })).toEqual({});
		expect(
			specifications([
				{ price: 12.9, referenceQuantity: { value: 1 } },
				{ price: 3.23, priceCurrency: 'EUR' },
			]),
		).toEqual({ price: 3.23, priceCurrency: 'EUR' });
		expect(specifications(undefined)).toEqual({});
	});
});

describe('field, named, typesOf', () => {
	it('read keys in any case, enumerations as written or by @id, and bare type names', () => {
		expect(field({ PriceCurrency: 'EUR' }, 'priceCurrency')).toBe('EUR');
		expect(named([{ '@id': 'schema:InStock' }])).toBe('schema:InStock');
		expect(typesOf({ '@type': ['http://schema.org/Product', 'schema:Car'] })).toEqual(['Product', 'Car']);
	});
});

describe('parseBlock', () => {
	it('reads a plain block as it is, and a wrapped one without its wrapper', () => {
		expect(parseBlock(' {"a": 1} ')).toEqual({ a: 1 });
		expect(parseBlock('/*<![CDATA[*/{"a": 1}/*]]>*/')).toEqual({ a: 1 });
		expect(parseBlock('<!--//--><![CDATA[//><!--\n{"a": 1}\n//--><!]]>')).toEqual({ a: 1 });
		expect(parseBlock('{"a": "x // y"}')).toEqual({ a: 'x // y' });
	});
});
