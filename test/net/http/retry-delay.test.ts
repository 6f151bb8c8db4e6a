import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelay } from '../../../src/net/http/retry-delay.js';

const base = { baseMs: 1000, maxRetryAfterMs: 60_000, now: Date.parse('2026-01-01T00:00:00Z'), random: 0.5 };

describe('retryDelay', () => {
	it('honours Retry-After in seconds', () => {
		expect(retryDelay({ ...base, attempt: 1, retryAfter: '3' })).toBe(3000);
	});

	it('honours Retry-After as an HTTP-date', () => {
		expect(retryDelay({ ...base, attempt: 1, retryAfter: 'Thu, 01 Jan 2026 00:00:10 GMT' })).toBe(10_000);
	});

	it('gives up when Retry-After is beyond the cap', () => {
		expect(retryDelay({ ...base, attempt: 1, retryAfter: '61' })).toBeUndefined();
	});

	it('backs off exponentially with jitter when the server says nothing', () => {
		expect(retryDelay({ ...base, attempt: 1 })).toBe(750);
		expect(retryDelay({ ...base, attempt: 3, random: 0 })).toBe(2000);
	});

	it('ignores an unparseable Retry-After', () => {
		expect(parseRetryAfter('soon', base.now)).toBeUndefined();
		expect(parseRetryAfter('Thu, 01 Jan 2025 00:00:00 GMT', base.now)).toBe(0);
	});
});
