import { describe, expect, it } from 'vitest';
import { freshnessAt, intervalFor, watchInterval, WATCH_INTERVALS } from '../../../src/domain/schedule/due-time.js';
import { checkValue } from '../../../src/domain/schedule/rate.js';

const DAY = 86_400_000;

describe('intervalFor', () => {
	it('inverts the value of a check: U(intervalFor(λ, μ)) = μ', () => {
		for (const [rate, days] of [
			[1, 0.5],
			[0.01, 40],
			[5, 0.05],
			[0.2, 3],
		] as const) {
			expect(intervalFor(rate, checkValue(rate, days))).toBeCloseTo(days, 6);
		}
	});

	it('is Infinity where no interval is worth μ (μ ≥ 1/λ), and longer for a higher μ', () => {
		expect(intervalFor(2, 0.5)).toBe(Infinity);
		expect(intervalFor(1, 0.2)).toBeGreaterThan(intervalFor(1, 0.1));
	});
});

describe('watchInterval', () => {
	it('caps a new URL at the learning interval, doubled for each check it has had', () => {
		expect(watchInterval(0.01, 1, 0, WATCH_INTERVALS)).toBe(WATCH_INTERVALS.learnMs);
		expect(watchInterval(0.01, 1, 3, WATCH_INTERVALS)).toBe(8 * WATCH_INTERVALS.learnMs);
	});

	it('keeps a page that changes too fast to chase at the longest interval, never starved', () => {
		expect(watchInterval(100, 1, 40, WATCH_INTERVALS)).toBe(WATCH_INTERVALS.maxMs);
	});

	it('never goes under the shortest interval', () => {
		expect(watchInterval(1000, 1e-9, 40, WATCH_INTERVALS)).toBe(WATCH_INTERVALS.minMs);
		expect(watchInterval(1, 0.1, 40, WATCH_INTERVALS) / DAY).toBeCloseTo(intervalFor(1, 0.1), 6);
	});
});

describe('freshnessAt', () => {
	it('is (1 − e^(−λI)) / λI', () => {
		expect(freshnessAt(1, 1)).toBeCloseTo(0.632, 3);
		expect(freshnessAt(0, 5)).toBe(1);
	});
});
