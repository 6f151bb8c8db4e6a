/**
 * Per-URL change rates, estimated from the URL's own checks: at each check revisit only
 * learns whether the page changed since the check before (a 304 or the same content is
 * "no"), at irregular intervals. See docs/12-scheduling.md for the formulas.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * Verdict reasons that say nothing about whether the page changed since its last check:
 * they add no check to the history, and score no skip signal.
 *
 * @example
 * UNOBSERVED_REASONS.has('new') // true
 */
export const UNOBSERVED_REASONS: ReadonlySet<string> = new Set(['new', 'error', 'robots', 'deferred', 'candidate']);

/** Checks kept per URL (the bounded history): the latest ones, oldest first. */
export const HISTORY_LENGTH = 24;

/**
 * The prior on a URL's rate λ (changes per day): a Gamma density ∝ λ^a · e^(−b·λ), worth
 * `a` changes seen over `b` days. Its mode a / b is a change every 4 days; it weighs as
 * half a change over two days, so a few checks outweigh it (bench/FRESHNESS.md: the
 * choice moves freshness by under 0.005). It keeps a URL whose checks never found a
 * change at a rate above 0 (a / (b + days watched)), so that it is never starved.
 */
export const RATE_PRIOR = { changes: 0.5, days: 2 } as const;

/**
 * One check as the history keeps it: the minutes since the check before, negative when
 * this check found a change. Compact and JSON-friendly (a number per check).
 *
 * @example
 * checkEntry(2 * 86_400_000, true) // -2880
 */
export function checkEntry(elapsedMs: number, changed: boolean): number {
	const minutes = Math.max(1, Math.round(elapsedMs / MINUTE_MS));
	return changed ? -minutes : minutes;
}

/**
 * The history after one more check, cut to `HISTORY_LENGTH`.
 *
 * @example
 * addCheck([1440], 86_400_000, false) // [1440, 1440]
 */
export function addCheck(history: readonly number[] | undefined, elapsedMs: number, changed: boolean): number[] {
	const next = [...(history ?? []), checkEntry(elapsedMs, changed)];
	return next.length > HISTORY_LENGTH ? next.slice(next.length - HISTORY_LENGTH) : next;
}

/**
 * The rate of change (changes per day) that is most probable given the checks and the
 * prior: the λ that maximises
 *   Σ_changed log(1 − e^(−λ·tᵢ)) − λ·Σ_unchanged tⱼ + a·log λ − b·λ
 * (a Poisson process seen only as "changed or not" at irregular intervals, as in Cho and
 * Garcia-Molina 2003, with a Gamma prior). Its derivative
 *   Σ_changed tᵢ / (e^(λ·tᵢ) − 1) + a/λ − b − Σ_unchanged tⱼ
 * falls from +∞ to below 0, so the root is unique; found by bisection on log λ.
 *
 * @example
 * estimateRate([]) // 0.25 (the prior's mode)
 * estimateRate([-1440, -1440, -1440, -1440]) // high: it changed every day it was checked
 */
export function estimateRate(history: readonly number[] | undefined, prior: { changes: number; days: number } = RATE_PRIOR): number {
	const changed: number[] = [];
	let unchangedDays = 0;
	for (const entry of history ?? []) {
		const days = (Math.abs(entry) * MINUTE_MS) / DAY_MS;
		if (entry < 0) changed.push(days);
		else unchangedDays += days;
	}
	const { changes: a, days: b } = prior;
	// No change seen: the root is a / (b + days watched), in closed form (most URLs of a sweep).
	if (changed.length === 0) return Math.min(1e3, Math.max(1e-4, a / (b + unchangedDays)));
	const slope = (rate: number): number => {
		let sum = a / rate - b - unchangedDays;
		for (const t of changed) sum += t / Math.expm1(rate * t);
		return sum;
	};
	// In log space: from a change in 30 years to 1000 changes a day.
	let low = Math.log(1e-4);
	let high = Math.log(1e3);
	if (slope(Math.exp(high)) > 0) return 1e3;
	if (slope(Math.exp(low)) < 0) return 1e-4;
	for (let i = 0; i < 50; i++) {
		const mid = (low + high) / 2;
		if (slope(Math.exp(mid)) > 0) low = mid;
		else high = mid;
	}
	return Math.exp((low + high) / 2);
}

/**
 * What checking a URL now is worth, in days of freshness: the marginal value
 *   ψ(λ, τ) = (1 − (1 + λτ)·e^(−λτ)) / λ
 * of a URL with rate λ (per day) last checked τ days ago. Checking every URL when its ψ
 * reaches one common threshold is the allocation that maximises average freshness for a
 * number of checks a day (Cho and Garcia-Molina 2003; Azar et al. 2018): ψ grows with τ,
 * and is at most 1/λ, so a page that changes far more often than it could be checked is
 * not worth chasing. ψ ≈ λτ²/2 while λτ is small.
 *
 * @example
 * checkValue(1, 1) // 0.264
 * checkValue(0.01, 30) // 3.7: a slow page unchecked for a month is worth more
 */
export function checkValue(rate: number, elapsedDays: number): number {
	if (elapsedDays <= 0) return 0;
	const x = rate * elapsedDays;
	if (x < 1e-6) return (rate * elapsedDays * elapsedDays) / 2;
	return -Math.expm1(-x) / rate - elapsedDays * Math.exp(-x);
}

/**
 * The probability that a URL with rate λ changed in the τ days since its last check:
 * 1 − e^(−λτ).
 *
 * @example
 * changeProbability(0.5, 2) // 0.632
 */
export function changeProbability(rate: number, elapsedDays: number): number {
	return -Math.expm1(-rate * Math.max(0, elapsedDays));
}

/** Days in `ms`. */
export const daysOf = (ms: number): number => ms / DAY_MS;
