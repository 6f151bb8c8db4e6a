import { describe, expect, it } from 'vitest';
import { normalizeSpaces, readAmount, scanNumbers } from '../../../src/domain/product/price-number.js';

describe('scanNumbers', () => {
	it('joins digit groups a space separates only before exactly three digits', () => {
		expect(scanNumbers('1 099,00 € tax incl.').map((t) => t.raw)).toEqual(['1 099,00']);
		expect(scanNumbers('4.81 16 von 5').map((t) => t.raw)).toEqual(['4.81', '16', '5']);
		expect(scanNumbers('90 728.00 руб 103 100.00 руб').map((t) => t.raw)).toEqual(['90 728.00', '103 100.00']);
	});

	it('ends a number at a trailing separator or a ",-" that says no decimals, and reports where it is', () => {
		expect(scanNumbers('€ 610,')).toEqual([{ start: 2, end: 5, raw: '610' }]);
		expect(scanNumbers('12,-€')).toEqual([{ start: 0, end: 4, raw: '12' }]);
	});

	it('starts a number at a leading point', () => {
		expect(scanNumbers('$..75').map((t) => t.raw)).toEqual(['.75']);
	});
});

describe('readAmount', () => {
	it.each([
		['1,234.56', 1234.56],
		['1.234,56', 1234.56],
		['1 234,56', 1234.56],
		["1'234.56", 1234.56],
		['1,23,456.00', 123456],
		['1.144.000', 1144000],
		['1.727', 1727],
		['0,500', 0.5],
		['3.3900', 3.39],
		['12345,678', 12345.678],
		['.75', 0.75],
		['.750.30', 750.3],
		['35€99', 35.99],
	])('reads %j as %d', (raw, amount) => {
		expect(readAmount(raw)).toBe(amount);
	});

	it('gives undefined for separators that make no amount (a date)', () => {
		expect(readAmount('15.08.2017')).toBeUndefined();
		expect(readAmount('1.234,567,89')).toBeUndefined();
	});

	it('follows a known decimal separator and three-decimal currencies', () => {
		expect(readAmount('140.000', { decimal: '.' })).toBe(140);
		expect(readAmount('140.000', { decimal: ',' })).toBe(140000);
		expect(readAmount('.75,333', { decimal: '.' })).toBe(0.75333);
		expect(readAmount('1.500', { threeDecimals: true })).toBe(1.5);
	});
});

describe('normalizeSpaces', () => {
	it('makes NBSP, narrow NBSP and thin spaces plain, keeping the length', () => {
		expect(normalizeSpaces('1\u00a0234\u202f5\u20096')).toBe('1 234 5 6');
	});
});
