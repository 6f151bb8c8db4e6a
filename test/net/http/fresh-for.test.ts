import { describe, expect, it } from 'vitest';
import { freshFor } from '../../../src/net/http/fresh-for.js';

describe('freshFor', () => {
	it('reads max-age less Age, then Expires less Date, and 0 for no-cache or no-store', () => {
		expect(freshFor({ 'cache-control': 'public, max-age=600' })).toBe(600_000);
		expect(freshFor({ 'cache-control': 'max-age=600', age: '100' })).toBe(500_000);
		expect(freshFor({ 'cache-control': 'no-cache, max-age=600' })).toBe(0);
		expect(freshFor({ expires: 'Thu, 01 Jan 2030 01:00:00 GMT', date: 'Thu, 01 Jan 2030 00:00:00 GMT' })).toBe(3_600_000);
		expect(freshFor({ 'cache-control': 'max-age=60', expires: 'Thu, 01 Jan 2030 01:00:00 GMT', date: 'Thu, 01 Jan 2030 00:00:00 GMT' })).toBe(60_000);
		expect(freshFor({ expires: '0', date: 'Thu, 01 Jan 2030 00:00:00 GMT' })).toBe(0);
	});

	it('is undefined when the answer says nothing about its freshness', () => {
		expect(freshFor({})).toBeUndefined();
		expect(freshFor({ 'cache-control': 'public' })).toBeUndefined();
		expect(freshFor({ expires: 'Thu, 01 Jan 2030 01:00:00 GMT' })).toBeUndefined();
	});
});
