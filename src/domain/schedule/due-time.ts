import { checkValue } from './rate.js';

const DAY_MS = 86_400_000;

/** Bounds on a watched URL's interval (schedule-clock ms), and how fast a new URL's grows. */
export interface IntervalBounds {
	/** No URL is checked more often than this. */
	minMs: number;
	/** Nor less often: a page that changes faster than it could be checked is still looked at. */
	maxMs: number;
	/** A new URL's first interval; each check it has had doubles the cap (1, 2, 4, … times this). */
	learnMs: number;
}

/** The defaults `revisit watch` uses: 5 minutes to 30 days, new URLs after 1 hour, then 2, 4, … */
export const WATCH_INTERVALS: IntervalBounds = { minMs: 300_000, maxMs: 30 * DAY_MS, learnMs: 3_600_000 };

/**
 * The interval (days) after which checking a URL of rate λ (per day) is worth μ days of
 * freshness: the I that solves U(I) = μ, where U(t) = 1/λ − (t + 1/λ)·e^(−λt) is the
 * value of a check t days after the last (Olston & Pandey 2008; `checkValue`). U grows
 * from 0 to 1/λ, so where μ ≥ 1/λ no interval is worth it: Infinity (the caller caps).
 * With x = λI the equation is 1 − (1 + x)·e^(−x) = λμ, solved by bisection on log x.
 *
 * @example
 * intervalFor(1, checkValue(1, 0.5)) // 0.5
 */
export function intervalFor(rate: number, mu: number): number {
	const target = rate * mu;
	if (target >= 1) return Infinity;
	if (target <= 0) return 0;
	// 1 − (1 + x)e^(−x) ≈ x²/2 for small x: a close start for the bisection's bounds.
	let low = Math.log(1e-12);
	let high = Math.log(80);
	for (let i = 0; i < 40; i++) {
		const mid = (low + high) / 2;
		const x = Math.exp(mid);
		if (-Math.expm1(-x) - x * Math.exp(-x) < target) low = mid;
		else high = mid;
	}
	return Math.exp((low + high) / 2) / rate;
}

/**
 * How long (ms) until a watched URL is next due: the interval at which a check is worth
 * μ, within the bounds; a URL with few checks behind it gets at most `learnMs · 2^checks`,
 * so that its rate is learnt quickly before it is left alone for weeks.
 *
 * @example
 * watchInterval(1, 0.1, 10, WATCH_INTERVALS) // about 0.47 days in ms
 * watchInterval(0.25, 0.1, 0, WATCH_INTERVALS) // 3600000: a new URL, after an hour
 */
export function watchInterval(rate: number, mu: number, checks: number, bounds: IntervalBounds): number {
	const ideal = intervalFor(rate, mu) * DAY_MS;
	const learning = bounds.learnMs * 2 ** Math.min(checks, 40);
	return Math.max(bounds.minMs, Math.min(ideal, learning, bounds.maxMs));
}

/**
 * The average freshness of a page of rate λ (per day) checked every I days: the share of
 * the time its copy is the live version, (1 − e^(−λI)) / (λI) (Cho and Garcia-Molina 2003).
 *
 * @example
 * freshnessAt(1, 1) // 0.632
 */
export function freshnessAt(rate: number, intervalDays: number): number {
	const x = rate * intervalDays;
	if (x < 1e-9) return 1;
	return -Math.expm1(-x) / x;
}

export { checkValue };
