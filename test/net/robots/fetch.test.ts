import { describe, expect, it } from 'vitest';
import { freshness, ROBOTS_FRESH_MS } from '../../../src/net/robots/fetch.js';

describe('freshness', () => {
	it('is 24 h, or less by Cache-Control', () => {
		expect(freshness(undefined)).toBe(ROBOTS_FRESH_MS);
		expect(freshness('max-age=600')).toBe(600_000);
		expect(freshness('max-age=999999')).toBe(ROBOTS_FRESH_MS);
		expect(freshness('no-cache')).toBe(0);
		expect(freshness('private')).toBe(ROBOTS_FRESH_MS);
	});
});
