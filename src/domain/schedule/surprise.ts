import type { UrlRecord } from '../../store/model/types.js';
import { changeProbability, daysOf, estimateRate } from './rate.js';

/**
 * How the churn guard tells a mass change from changes it was told to expect (docs/12-scheduling.md,
 * "Churn guard"). A run under `--budget` checks the URLs most likely to have changed, so
 * most of what it checks has changed: counting changes alone reads that as a mass change.
 * The guard compares a host's changes with the number its URLs' estimated rates predict.
 */

/**
 * Below this chance of seeing at least as many changes as were seen, the changes are a
 * surprise. One in a thousand: a host judged every day trips falsely about once in three
 * years where its rates are right, and a whole host changing at once where few changes
 * were due scores far below it (20 URLs each with a 50% chance: 1e-6).
 */
export const CHURN_SURPRISE = 1e-3;

/**
 * The rates are estimates from at most 24 yes/no checks, and a budget picks the URLs
 * whose estimate is highest: the guard takes each rate as this many times its estimate
 * before asking whether the changes were a surprise, so that an estimate too low by up
 * to this factor cannot trip it.
 */
export const RATE_ALLOWANCE = 3;

/**
 * The chance, as the guard allows for it, that a known URL changed between its last check
 * and `now`: undefined for a URL with no check in its history (a first sight tells nothing
 * of its rate; the guard's plain share rule judges those).
 *
 * @example
 * changeChance({ checks: [1440], lastChecked: 0 } as UrlRecord, 86_400_000) // 1 − e^(−3 × 0.167) ≈ 0.39
 */
export function changeChance(record: Pick<UrlRecord, 'checks' | 'rate' | 'lastChecked'>, now: number): number | undefined {
	if (!record.checks?.length) return undefined;
	const rate = record.rate ?? estimateRate(record.checks);
	return changeProbability(rate * RATE_ALLOWANCE, daysOf(now - record.lastChecked));
}

/**
 * The chance that at least `k` of independent events with these chances happen (the tail
 * of a Poisson binomial distribution), exactly, in O(n·k): the distribution of the count
 * so far, with everything at or over `k` in one last cell.
 *
 * @example
 * atLeast([0.5, 0.5], 2) // 0.25
 * atLeast([0.9, 0.9, 0.9], 0) // 1
 */
export function atLeast(chances: readonly number[], k: number): number {
	if (k <= 0) return 1;
	if (k > chances.length) return 0;
	// cells[j]: chance of exactly j so far (j < k); cells[k]: of k or more.
	const cells = new Float64Array(k + 1);
	cells[0] = 1;
	for (const p of chances) {
		cells[k] += cells[k - 1]! * p;
		for (let j = k - 1; j > 0; j--) cells[j] = cells[j]! * (1 - p) + cells[j - 1]! * p;
		cells[0] = cells[0]! * (1 - p);
	}
	return cells[k]!;
}
