import { describe, expect, it } from 'vitest';
import { currencyOf, currencyRead } from '../../../src/domain/product/found.js';

describe('currencyOf', () => {
	it('writes a three-letter code in capitals, a symbol of one currency as its code, and one several share as written', () => {
		expect(currencyOf('eur')).toBe('EUR');
		expect(currencyOf(' USD ')).toBe('USD');
		expect(currencyOf('€')).toBe('EUR');
		expect(currencyOf('zł')).toBe('PLN');
		expect(currencyOf('$')).toBe('$');
		expect(currencyOf('kr')).toBe('kr');
	});

	it('reads nothing else, and says why', () => {
		expect(currencyRead('UAN')).toEqual({ problem: 'currency "UAN" is no ISO 4217 code: not read' });
		expect(currencyRead('EUR\x1b]52;c;ZXZpbA==\x07')).toEqual({ problem: 'currency "EUR\\u001b]52;c;ZXZpbA==\\u0007" is no ISO 4217 code: not read' });
		expect(currencyRead('euros please')).toMatchObject({ problem: expect.any(String) });
		expect(currencyRead('x'.repeat(100)).problem).toBe(`currency "${'x'.repeat(40)}…" is no ISO 4217 code: not read`);
		expect(currencyOf('UAN')).toBeUndefined();
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
