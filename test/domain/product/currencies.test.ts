import { describe, expect, it } from 'vitest';
import { currencyCode, findCurrencies, hasCurrency, hasThreeDecimals } from '../../../src/domain/product/currencies.js';

describe('currencyCode', () => {
	it('gives the ISO 4217 code of a code, or of a symbol naming one currency', () => {
		expect(currencyCode('EUR')).toBe('EUR');
		expect(currencyCode('pln')).toBe('PLN');
		expect(currencyCode('€')).toBe('EUR');
		expect(currencyCode('R$')).toBe('BRL');
		expect(currencyCode('руб.')).toBe('RUB');
		expect(currencyCode('دينار أردني')).toBe('JOD');
	});

	it('gives undefined for a symbol several currencies share, and for unknown text', () => {
		for (const written of ['$', 'kr', '¥', 'Rs', 'Price']) expect(currencyCode(written)).toBeUndefined();
		// Everyday words are codes in capitals only.
		expect(currencyCode('all')).toBeUndefined();
	});
});

describe('findCurrencies', () => {
	it('finds the words shops write for a currency several countries share, for the page to name its code', () => {
		expect(findCurrencies('Only 12 dollars').map((found) => [found.written, found.code])).toEqual([['dollars', undefined]]);
		expect(findCurrencies('3.5 pounds, 40 pesos, 199 kroner').map((found) => found.written)).toEqual(['pounds', 'pesos', 'kroner']);
		expect(currencyCode('sterling')).toBe('GBP');
		expect(hasCurrency('Save 5 dollars')).toBe(true);
	});

	it('finds every currency, left to right, longest spelling first', () => {
		expect(findCurrencies('NZD $100.70 or US$ 70').map(({ written, code }) => [written, code])).toEqual([
			['NZD', 'NZD'],
			['$', undefined],
			['US$', 'USD'],
		]);
	});

	it('takes a token made of letters only as a word of its own, but lets digits touch it', () => {
		expect(findCurrencies('Kraft, Kleid, Ftp')).toEqual([]);
		expect(findCurrencies('RM50').map((c) => c.written)).toEqual(['RM']);
		expect(findCurrencies('50 Kč.').map((c) => c.code)).toEqual(['CZK']);
	});

	it('is case-sensitive where case tells a currency from a unit', () => {
		expect(findCurrencies('120 Ft').map((c) => c.code)).toEqual(['HUF']);
		expect(findCurrencies('120 ft')).toEqual([]);
	});
});

describe('hasThreeDecimals', () => {
	it('holds for the dinars and rials quoted to the fils', () => {
		expect(hasThreeDecimals('KWD')).toBe(true);
		expect(hasThreeDecimals('EUR')).toBe(false);
		expect(hasThreeDecimals(undefined)).toBe(false);
	});
});

describe('withdrawn codes in text', () => {
	it('reads RUR as RUB, a code', () => {
		expect(currencyCode('RUR')).toBe('RUB');
		expect(findCurrencies('1 299 RUR')).toMatchObject([{ written: 'RUR', code: 'RUB', rank: 3 }]);
	});
});

describe('hasCurrency', () => {
	it('says whether findCurrencies finds any', () => {
		for (const text of ['NZD $100.70', 'Only 12,99 €', '150 kr', 'Kraft 150', '12 items', 'RM50', '', 'Price: 30,000원~', 'Pln 5', 'USDA 5']) {
			expect(hasCurrency(text), text).toBe(findCurrencies(text).length > 0);
		}
		expect(hasCurrency('Only 12,99 €')).toBe(true);
		expect(hasCurrency('Kraft 150')).toBe(false);
	});
});
