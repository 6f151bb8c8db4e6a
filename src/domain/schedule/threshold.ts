import { binRate } from '../../store/model/due.js';
import { freshnessAt, intervalFor, type IntervalBounds } from './due-time.js';

const DAY_MS = 86_400_000;

/** One rate bin of the schedule: its rate (per day) and how many URLs have it. */
interface Bin {
	rate: number;
	count: number;
}

const binsOf = (counts: readonly number[]): Bin[] => counts.flatMap((count, bin) => (count > 0 ? [{ rate: binRate(bin), count }] : []));

/** A URL's interval in days at threshold μ, within the bounds (learning aside). */
function boundedDays(rate: number, mu: number, bounds: IntervalBounds): number {
	return Math.max(bounds.minMs, Math.min(intervalFor(rate, mu) * DAY_MS, bounds.maxMs)) / DAY_MS;
}

/**
 * The threshold μ (days of freshness a check must be worth) at which the URLs of a
 * schedule, each checked when its check is worth μ, take `checksPerDay` checks a day:
 * Σ count / I(rate, μ) = checksPerDay, over the schedule's rate histogram (`rateBins`).
 * That is Cho's Lagrange multiplier, and Olston & Pandey's broadcast threshold: with
 * one μ for every URL, the checks go where they add the most freshness. The checks a
 * day fall as μ grows, so the root is found by bisection on log μ; where even the
 * shortest interval for every URL takes fewer checks than that, μ is 0.
 *
 * @example
 * solveThreshold(counts, 1000, WATCH_INTERVALS) // μ such that 1000 checks a day are spent
 */
export function solveThreshold(counts: readonly number[], checksPerDay: number, bounds: IntervalBounds): number {
	const bins = binsOf(counts);
	if (bins.length === 0 || !(checksPerDay > 0)) return 0;
	const spent = (mu: number): number => bins.reduce((sum, bin) => sum + bin.count / boundedDays(bin.rate, mu, bounds), 0);
	if (spent(0) <= checksPerDay) return 0;
	let low = Math.log(1e-9);
	let high = Math.log(1e5);
	for (let i = 0; i < 40; i++) {
		const mid = (low + high) / 2;
		if (spent(Math.exp(mid)) > checksPerDay) low = mid;
		else high = mid;
	}
	return Math.exp((low + high) / 2);
}

/**
 * The freshness the model expects of a schedule at threshold μ: the average over its
 * URLs of (1 − e^(−λI)) / (λI), each URL checked every I(λ, μ) days, as estimated
 * rates say. What `/metrics` shows as `revisit_expected_freshness`.
 *
 * @example
 * expectedFreshness(counts, 0.2, WATCH_INTERVALS) // 0.93
 */
export function expectedFreshness(counts: readonly number[], mu: number, bounds: IntervalBounds): number {
	const bins = binsOf(counts);
	let total = 0;
	let fresh = 0;
	for (const bin of bins) {
		total += bin.count;
		fresh += bin.count * freshnessAt(bin.rate, boundedDays(bin.rate, mu, bounds));
	}
	return total === 0 ? 1 : fresh / total;
}
