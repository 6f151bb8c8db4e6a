import { verificationDue } from '../hosts/verify.js';
import { liveRecord, probeTarget } from '../http/target.js';
import { candidateOf, pick, type BudgetOptions, type PickTier } from '../schedule/pick.js';
import { isDue } from '../stages/due.js';
import type { UrlRecord, ValidatorStore } from '../store/types.js';

/** One stored URL that is due, as `revisit due --json` prints it. */
export interface DueEntry {
	url: string;
	/** Estimated changes per day. */
	rate: number;
	/** Its last check (ISO 8601). */
	lastChecked: string;
	/** Why it competes where it does: `verify` (made due by --verify-every) before `value`. */
	tier: PickTier;
	/** ψ: days of freshness a check now adds (docs/16-scheduling.md); null for `verify`. */
	value: number | null;
	/** Left for a later run by the budget. */
	later: boolean;
}

export interface DueListOptions extends BudgetOptions {
	ttlMs?: number | undefined;
	/** `--verify-every` in ms; 0 off. */
	verifyEveryMs: number;
	now: number;
}

/**
 * The stored URLs due at `now`, in store order, each marked `later` where a run with this
 * budget would leave it for later (the same rule as the sweep's budget stage).
 *
 * @example
 * for (const entry of await dueList(store, { budget: 200, verifyEveryMs: 0, now: Date.now() })) console.log(entry.url);
 */
export async function dueList(store: ValidatorStore, options: DueListOptions): Promise<DueEntry[]> {
	const due: Array<[string, UrlRecord, string]> = [];
	for await (const [url, record] of store.entries()) {
		if (isDue(record, options.ttlMs, options.now)) due.push([url, record, new URL(probeTarget(url, record)).origin]);
	}
	const origins = [...new Set(due.map(([, , origin]) => origin))];
	const hosts = new Map(origins.map((origin, i) => [origin, i]));
	const records = await store.getHosts(origins);
	const candidates = due.map(([url, record, origin]) => {
		const live = liveRecord(record);
		const verify = live !== undefined && verificationDue(live, url, records[hosts.get(origin)!]?.runInterval, options.verifyEveryMs, options.now);
		return candidateOf(record, origin, { verify }, options.now);
	});
	const chosen = pick(candidates, options);
	return due.map(([url, record], i) => {
		const candidate = candidates[i]!;
		return {
			url,
			rate: candidate.rate!,
			lastChecked: new Date(record.lastChecked).toISOString(),
			tier: candidate.tier,
			value: Number.isFinite(candidate.value) ? Number(candidate.value.toPrecision(4)) : null,
			later: !chosen[i],
		};
	});
}
