import { describe, expect, it } from 'vitest';
import { WATCH_INTERVALS, watchInterval } from '../../../src/domain/schedule/due-time.js';
import { expectedFreshness, solveThreshold } from '../../../src/domain/schedule/threshold.js';
import { binRate, RATE_BINS, rateBin } from '../../../src/store/model/due.js';

const DAY = 86_400_000;
const histogram = (rates: Array<[number, number]>): number[] => {
	const bins = new Array<number>(RATE_BINS).fill(0);
	for (const [rate, count] of rates) bins[rateBin(rate)]! += count;
	return bins;
};
// The mix, 1000 URLs: half about twice a year, 30% weekly, 20% daily.
const mix = histogram([
	[1 / 180, 500],
	[1 / 7, 300],
	[1, 200],
]);

describe('solveThreshold', () => {
	it('spends the checks a day it is given', () => {
		for (const perDay of [500, 1000, 2000]) {
			const mu = solveThreshold(mix, perDay, WATCH_INTERVALS);
			const spent = mix.reduce((sum, count, bin) => sum + (count * DAY) / watchInterval(binRate(bin), mu, 40, WATCH_INTERVALS), 0);
			expect(spent / perDay).toBeCloseTo(1, 2);
		}
	});

	it('gives the daily pages more checks than the slow ones, and more checks more freshness', () => {
		const mu = solveThreshold(mix, 1000, WATCH_INTERVALS);
		expect(watchInterval(1, mu, 40, WATCH_INTERVALS)).toBeLessThan(watchInterval(1 / 180, mu, 40, WATCH_INTERVALS));
		// Cho's optimum on this mix at one check per page a day is about 0.94; the batch ceiling 0.897.
		expect(expectedFreshness(mix, mu, WATCH_INTERVALS)).toBeGreaterThan(0.92);
		expect(expectedFreshness(mix, solveThreshold(mix, 2000, WATCH_INTERVALS), WATCH_INTERVALS)).toBeGreaterThan(expectedFreshness(mix, mu, WATCH_INTERVALS));
	});

	it('is 0 where even the shortest interval spends less than the rate', () => {
		expect(solveThreshold(histogram([[1, 10]]), 1e9, WATCH_INTERVALS)).toBe(0);
		expect(solveThreshold(new Array<number>(RATE_BINS).fill(0), 100, WATCH_INTERVALS)).toBe(0);
	});
});
