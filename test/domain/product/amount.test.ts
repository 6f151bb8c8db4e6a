import { describe, expect, it } from 'vitest';
import { amountOf } from '../../../src/domain/product/amount.js';

describe('amountOf', () => {
	it('takes numbers as they are', () => {
		expect(amountOf(2879.2)).toEqual({ amount: 2879.2 });
		expect(amountOf(0)).toEqual({ amount: 0 });
		// A negative number is given as it is: priceRead names it and refuses it.
		expect(amountOf(-1)).toEqual({ amount: -1 });
		expect(amountOf(Number.NaN)).toBeUndefined();
	});

	it('reads a string that is a number, in either separator convention', () => {
		expect(amountOf('2879.20')).toEqual({ amount: 2879.2 });
		expect(amountOf(' 19 ')).toEqual({ amount: 19 });
		expect(amountOf('1.299,00')).toEqual({ amount: 1299 });
		expect(amountOf('1,299.00')).toEqual({ amount: 1299 });
		expect(amountOf('19,99')).toEqual({ amount: 19.99 });
		expect(amountOf('1,299')).toEqual({ amount: 1299 });
		expect(amountOf('1.234.567')).toEqual({ amount: 1234567 });
		expect(amountOf('1 234,56')).toEqual({ amount: 1234.56 });
	});

	it('gives a string with a symbol or words to the price parser', () => {
		expect(amountOf('$19.99')?.amount).toBe(19.99);
	});

	it('has no amount for what is not a price', () => {
		expect(amountOf('')).toBeUndefined();
		expect(amountOf(null)).toBeUndefined();
		expect(amountOf({ price: 1 })).toBeUndefined();
		expect(amountOf('call us')).toBeUndefined();
	});
});
