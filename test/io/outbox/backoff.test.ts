import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, backoffDelay } from '../../../src/io/outbox/backoff.js';

describe('backoffDelay', () => {
	it('doubles from a second after each failed attempt', () => {
		expect([1, 2, 3, 4, 5].map((failures) => backoffDelay(failures, 0))).toEqual([1000, 2000, 4000, 8000, 16_000]);
	});

	it(
		'waits at most a twentieth of the time the target has been down, ' + 'never under 30 s for that bound: back after 10 minutes, tried within half a minute',
		() => {
			expect(backoffDelay(30, 600_000)).toBe(30_000);
			expect(backoffDelay(30, 60_000)).toBe(30_000);
			expect(backoffDelay(30, 3_600_000)).toBe(180_000);
		},
	);

	it('waits an hour at most, however long the target has been down', () => {
		expect(backoffDelay(200, 30 * 86_400_000)).toBe(DEFAULT_BACKOFF.capMs);
		expect(backoffDelay(3, 0, { firstMs: 500, capMs: 1500 })).toBe(1500);
	});
});
