import { describe, expect, it } from 'vitest';
import { currencyOf } from '../../src/product/found.js';

describe('currencyOf', () => {
	it('writes a three-letter code in capitals and anything else as written', () => {
		expect(currencyOf('eur')).toBe('EUR');
		expect(currencyOf(' USD ')).toBe('USD');
		expect(currencyOf('$')).toBe('$');
		expect(currencyOf('kr')).toBe('kr');
	});

	it('has none for an empty or non-string value', () => {
		expect(currencyOf('')).toBeUndefined();
		expect(currencyOf(' ')).toBeUndefined();
		expect(currencyOf(978)).toBeUndefined();
		expect(currencyOf(undefined)).toBeUndefined();
	});
});

describe('currencyOf and withdrawn codes', () => {
	it('names a withdrawn code by the one that replaced it', () => {
		expect(currencyOf('RUR')).toBe('RUB');
		expect(currencyOf('rur')).toBe('RUB');
		expect(currencyOf('BYR')).toBe('BYN');
		expect(currencyOf('TRL')).toBe('TRY');
		// An amount in marks is not one in euros: the pre-euro codes stay.
		expect(currencyOf('DEM')).toBe('DEM');
	});
});
