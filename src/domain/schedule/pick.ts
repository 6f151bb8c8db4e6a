import type { UrlRecord } from '../../store/model/types.js';
import { checkValue, daysOf, estimateRate } from './rate.js';

/** Why a URL is (or would be) checked under a budget, in the order they are served. */
export type PickTier = 'new' | 'verify' | 'announced' | 'value';

/** One URL competing for the budget. */
export interface BudgetCandidate {
	origin: string;
	tier: PickTier;
	/** ψ, in days of freshness (see `checkValue`); Infinity for new and verification-due URLs. Ranks within a tier. */
	value: number;
	/** Changes per day, as estimated; absent for a new URL. */
	rate?: number;
}

export interface BudgetOptions {
	/** Most checks in the run; unset, no limit. */
	budget?: number | undefined;
	/** Most checks per origin in the run; unset, no limit. */
	hostBudget?: number | undefined;
	/** Checks per origin already taken in the run (new URLs), counted against `hostBudget`. */
	used?: ReadonlyMap<string, number> | undefined;
}

/** Each tier's place in the order they are served, and back: how a held URL keeps its tier in a byte. */
export const TIER_RANK: Readonly<Record<PickTier, number>> = { new: 0, verify: 1, announced: 2, value: 3 };
export const TIER_OF: readonly PickTier[] = ['new', 'verify', 'announced', 'value'];

/**
 * How a stored URL competes for the budget at `now`: new URLs first, then those
 * `--verify-every` has made due, then those a trusted sitemap lastmod says changed
 * (`announced`), then the rest by the freshness a check adds now.
 *
 * @example
 * candidateOf(null, 'https://example.org', {}, Date.now()) // { origin, tier: 'new', value: Infinity }
 */
export function candidateOf(
	record: UrlRecord | null | undefined,
	origin: string,
	flags: { verify?: boolean; announced?: boolean },
	now: number,
): BudgetCandidate {
	if (!record) return { origin, tier: 'new', value: Infinity };
	const rate = record.rate ?? estimateRate(record.checks);
	if (flags.verify) return { origin, tier: 'verify', value: Infinity, rate };
	const value = checkValue(rate, daysOf(now - record.lastChecked));
	if (flags.announced) return { origin, tier: 'announced', value, rate };
	return { origin, tier: 'value', value, rate };
}

/**
 * Whether candidate `a`, at input position `ai`, is checked before `b` at `bi`: by tier
 * (new, verify, announced, value), then the higher value, then the earlier in the input.
 *
 * @example
 * ranksBefore({ origin: 'a', tier: 'value', value: 2 }, 1, { origin: 'a', tier: 'value', value: 1 }, 0) // true
 */
export function ranksBefore(a: BudgetCandidate, ai: number, b: BudgetCandidate, bi: number): boolean {
	return ranksBeforeBy(TIER_RANK[a.tier], a.value, ai, TIER_RANK[b.tier], b.value, bi);
}

/**
 * `ranksBefore` over the numbers alone (a tier by its `TIER_RANK`), for a candidate kept
 * as numbers rather than as an object (the budget's held URLs).
 *
 * @example
 * ranksBeforeBy(TIER_RANK.value, 2, 1, TIER_RANK.value, 1, 0) // true
 */
export function ranksBeforeBy(aTier: number, aValue: number, ai: number, bTier: number, bValue: number, bi: number): boolean {
	if (aTier !== bTier) return aTier < bTier;
	return aValue === bValue ? ai < bi : aValue > bValue;
}

/**
 * Which candidates a run checks: in tier order (new, verify, value), the highest value
 * first, ties in input order, until `budget` checks are taken; an origin that has had
 * `hostBudget` is passed over. Returns one boolean per candidate, in input order.
 *
 * @example
 * pick([{ origin: 'a', tier: 'value', value: 1 }, { origin: 'a', tier: 'value', value: 2 }], { budget: 1 }) // [false, true]
 */
export function pick(candidates: readonly BudgetCandidate[], options: BudgetOptions): boolean[] {
	const budget = options.budget ?? Infinity;
	const hostBudget = options.hostBudget ?? Infinity;
	const order = candidates.map((_, i) => i).sort((x, y) => (x === y ? 0 : ranksBefore(candidates[x]!, x, candidates[y]!, y) ? -1 : 1));
	const taken = candidates.map(() => false);
	const perHost = new Map<string, number>(options.used ?? []);
	let total = 0;
	for (const i of order) {
		if (total >= budget) break;
		const origin = candidates[i]!.origin;
		const used = perHost.get(origin) ?? 0;
		if (used >= hostBudget) continue;
		perHost.set(origin, used + 1);
		taken[i] = true;
		total++;
	}
	return taken;
}
