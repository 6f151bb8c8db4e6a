import { describe, expect, it } from 'vitest';
import { candidateOf, pick, type BudgetCandidate } from '../../../src/domain/schedule/pick.js';
import { checkValue } from '../../../src/domain/schedule/rate.js';

const DAY = 86_400_000;
const value = (origin: string, v: number): BudgetCandidate => ({ origin, tier: 'value', value: v });

describe('pick', () => {
	it('never takes more than the budget, and takes the highest values first', () => {
		const candidates = [value('a', 1), value('a', 3), value('a', 2), value('a', 0.5)];
		expect(pick(candidates, { budget: 2 })).toEqual([false, true, true, false]);
		expect(pick(candidates, { budget: 0 }).filter(Boolean)).toHaveLength(0);
		expect(pick(candidates, {}).filter(Boolean)).toHaveLength(4);
	});

	it('serves new URLs, then verification-due ones, then those a trusted lastmod announced, before any by value', () => {
		const candidates: BudgetCandidate[] = [
			value('a', 100),
			{ origin: 'a', tier: 'verify', value: Infinity },
			{ origin: 'a', tier: 'new', value: Infinity },
			{ origin: 'a', tier: 'announced', value: 0.1 },
		];
		expect(pick(candidates, { budget: 1 })).toEqual([false, false, true, false]);
		expect(pick(candidates, { budget: 2 })).toEqual([false, true, true, false]);
		expect(pick(candidates, { budget: 3 })).toEqual([false, true, true, true]);
	});

	it('keeps each origin within its host budget, counting what was taken already, and gives the rest to others', () => {
		const candidates = [value('a', 5), value('a', 4), value('a', 3), value('b', 1)];
		expect(pick(candidates, { budget: 3, hostBudget: 2 })).toEqual([true, true, false, true]);
		expect(pick(candidates, { budget: 3, hostBudget: 2, used: new Map([['a', 1]]) })).toEqual([true, false, false, true]);
	});

	it('breaks ties in input order', () => {
		expect(pick([value('a', 1), value('a', 1), value('a', 1)], { budget: 2 })).toEqual([true, true, false]);
	});
});

describe('candidateOf', () => {
	it('values a stored URL by its rate and the days since its last check', () => {
		const now = 10 * DAY;
		const candidate = candidateOf({ v: 1, status: 200, lastChecked: 6 * DAY, rate: 0.2 }, 'o', {}, now);
		expect(candidate).toMatchObject({ tier: 'value', rate: 0.2 });
		expect(candidate.value).toBeCloseTo(checkValue(0.2, 4), 9);
		expect(candidateOf(null, 'o', {}, now).tier).toBe('new');
		expect(candidateOf({ v: 1, status: 200, lastChecked: 0 }, 'o', { verify: true }, now).tier).toBe('verify');
		expect(candidateOf({ v: 1, status: 200, lastChecked: 0 }, 'o', { announced: true }, now).tier).toBe('announced');
	});
});
