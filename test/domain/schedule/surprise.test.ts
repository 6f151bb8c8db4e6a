import { describe, expect, it } from 'vitest';
import { atLeast, changeChance, RATE_ALLOWANCE } from '../../../src/domain/schedule/surprise.js';

const DAY = 86_400_000;

describe('atLeast', () => {
	it('is the Poisson binomial upper tail, exactly', () => {
		expect(atLeast([0.5, 0.5], 2)).toBeCloseTo(0.25, 12);
		expect(atLeast([0.5, 0.5], 1)).toBeCloseTo(0.75, 12);
		expect(atLeast([0.2, 0.5, 0.9], 2)).toBeCloseTo(0.2 * 0.5 * 0.1 + 0.2 * 0.5 * 0.9 + 0.2 * 0.5 * 0.9 + 0.8 * 0.5 * 0.9, 12);
		expect(atLeast([0.9, 0.9, 0.9], 0)).toBe(1);
		expect(atLeast([0.9, 0.9], 3)).toBe(0);
	});

	it('against a binomial: 20 URLs at one chance', () => {
		const binomialTail = (n: number, p: number, k: number) => {
			let sum = 0;
			for (let j = k; j <= n; j++) {
				let c = 1;
				for (let i = 0; i < j; i++) c = (c * (n - i)) / (i + 1);
				sum += c * p ** j * (1 - p) ** (n - j);
			}
			return sum;
		};
		for (const [p, k] of [
			[0.9, 18],
			[0.5, 18],
			[0.05, 3],
		] as const)
			expect(atLeast(Array(20).fill(p), k)).toBeCloseTo(binomialTail(20, p, k), 12);
	});
});

describe('changeChance', () => {
	it('is undefined without a check in the history', () => {
		expect(changeChance({ lastChecked: 0 }, DAY)).toBeUndefined();
		expect(changeChance({ lastChecked: 0, checks: [] }, DAY)).toBeUndefined();
	});

	it('allows for an estimate too low by RATE_ALLOWANCE', () => {
		expect(changeChance({ lastChecked: 0, checks: [1440], rate: 0.1 }, 2 * DAY)).toBeCloseTo(1 - Math.exp(-0.1 * RATE_ALLOWANCE * 2), 12);
		expect(changeChance({ lastChecked: 0, checks: [1440], rate: 0.1 }, 0)).toBe(0);
	});
});
