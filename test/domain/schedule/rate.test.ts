import { describe, expect, it } from 'vitest';
import { addCheck, changeProbability, checkEntry, checkValue, estimateRate, HISTORY_LENGTH, RATE_PRIOR } from '../../../src/domain/schedule/rate.js';

const DAY = 86_400_000;
const days = (n: number, changed: boolean) => checkEntry(n * DAY, changed);

/** Poisson changes at `rate` a day, checked every `interval` days, `n` times: the history a URL would have. */
function observed(rate: number, interval: number, n: number, random: () => number): number[] {
	let history: number[] = [];
	for (let i = 0; i < n; i++) history = addCheck(history, interval * DAY, random() < 1 - Math.exp(-rate * interval));
	return history;
}

function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = Math.imul(a ^ (a >>> 15), a | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

describe('estimateRate', () => {
	it("is the prior's mode with no history", () => {
		expect(estimateRate([])).toBeCloseTo(RATE_PRIOR.changes / RATE_PRIOR.days, 6);
	});

	it('with no change seen, falls as a / (b + days watched), never to 0: a quiet URL is not starved', () => {
		const history = [days(10, false), days(10, false)];
		expect(estimateRate(history)).toBeCloseTo(RATE_PRIOR.changes / (RATE_PRIOR.days + 20), 6);
		expect(estimateRate([days(1000, false)])).toBeGreaterThan(0);
	});

	it('solves the likelihood with the prior: the slope is 0 at the estimate', () => {
		const history = [days(1, true), days(2, false), days(3, true), days(0.5, false)];
		const rate = estimateRate(history);
		const slope = RATE_PRIOR.changes / rate - RATE_PRIOR.days - 2.5 + 1 / Math.expm1(rate * 1) + 3 / Math.expm1(rate * 3);
		expect(Math.abs(slope)).toBeLessThan(1e-6);
	});

	it('recovers a rate from changed-or-not checks at its interval: over many URLs the median within 25%, slow or fast', () => {
		for (const [rate, interval] of [
			[0.1, 3],
			[1, 0.5],
			[0.02, 20],
		] as const) {
			const random = prng(7);
			const estimates = Array.from({ length: 101 }, () => estimateRate(observed(rate, interval, HISTORY_LENGTH, random))).sort((a, b) => a - b);
			const estimate = estimates[50]!;
			expect(estimate / rate, `rate ${rate}`).toBeGreaterThan(0.75);
			expect(estimate / rate, `rate ${rate}`).toBeLessThan(1.25);
		}
	});

	it('grows with changes found: more changes, higher rate', () => {
		expect(estimateRate([days(1, true), days(1, true)])).toBeGreaterThan(estimateRate([days(1, true), days(1, false)]));
	});
});

describe('history', () => {
	it('keeps minutes, negative for a change, and only the latest HISTORY_LENGTH checks', () => {
		expect(checkEntry(2 * DAY, true)).toBe(-2880);
		expect(checkEntry(0, false)).toBe(1);
		let history: number[] = [];
		for (let i = 0; i < HISTORY_LENGTH + 5; i++) history = addCheck(history, (i + 1) * 60_000, false);
		expect(history).toHaveLength(HISTORY_LENGTH);
		expect(history.at(-1)).toBe(HISTORY_LENGTH + 5);
	});
});

describe('checkValue', () => {
	it('is (1 - (1 + x) e^-x) / rate, grows with time since the check, and never passes 1 / rate', () => {
		expect(checkValue(1, 1)).toBeCloseTo(1 - 2 / Math.E, 9);
		expect(checkValue(0.5, 4)).toBeGreaterThan(checkValue(0.5, 2));
		expect(checkValue(10, 100)).toBeLessThanOrEqual(0.1);
		expect(checkValue(1e-9, 2)).toBeCloseTo(2e-9, 15);
		expect(checkValue(1, 0)).toBe(0);
	});

	it('prefers a slow page long unchecked to a page that changes faster than it could be kept fresh', () => {
		expect(checkValue(0.01, 30)).toBeGreaterThan(checkValue(20, 1));
	});

	it('changeProbability is 1 - e^(-rate * days)', () => {
		expect(changeProbability(0.5, 2)).toBeCloseTo(1 - Math.exp(-1), 9);
	});
});
