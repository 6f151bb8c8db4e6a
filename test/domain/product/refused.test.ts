import { describe, expect, it } from 'vitest';
import { amountOf } from '../../../src/domain/product/amount.js';
import { priceProblem, priceRead } from '../../../src/domain/product/refused.js';

describe('priceRead', () => {
	it('takes a price as it is read', () => {
		expect(priceRead('19.99', amountOf)).toEqual({ amount: { amount: 19.99 } });
		expect(priceRead('0', amountOf)).toEqual({ amount: { amount: 0 } });
		expect(priceRead('999999999999.99', amountOf)).toEqual({ amount: { amount: 999999999999.99 } });
		expect(priceRead('call us', amountOf)).toEqual({});
	});

	it('names a negative price rather than reading its magnitude', () => {
		expect(priceRead('-5', amountOf)).toEqual({ problem: 'negative price -5 refused' });
		expect(priceRead('−5 €', amountOf)).toEqual({ problem: 'negative price -5 refused' });
		expect(priceRead(-0.5, amountOf)).toEqual({ problem: 'negative price -0.5 refused' });
	});

	it('names an absurd price: 1e12 or more, more than 15 significant digits, or past what a number holds', () => {
		expect(priceRead('9'.repeat(400), amountOf)).toEqual({ problem: 'price of 400 digits refused as absurd' });
		expect(priceRead('1000000000000', amountOf)).toEqual({ problem: 'price of 13 digits refused as absurd' });
		expect(priceRead('1.2345678901234567', amountOf)).toEqual({ problem: 'price of 17 digits refused as absurd' });
		expect(priceRead(Number.POSITIVE_INFINITY, amountOf)).toEqual({ problem: 'price Infinity refused as absurd' });
		expect(priceProblem(1e300, 1e300)).toBe('price 1e+300 refused as absurd');
	});
});
