import { DEPTH_ORIGINS, type QueueStats } from './types.js';
import type { Leases } from './level-claims.js';
import type { LevelPlaces } from './level-places.js';
import { keyTime, pad, SEP } from './level-keys.js';

/** The backlog is counted up to this many URLs (a count over 100,000 due URLs is "at least 100,000"): on LevelDB, counting is reading every key. */
export const BACKLOG_COUNTED = 100_000;

/**
 * The LevelDB schedule's size as `DueQueue.stats` gives it. Claimed URLs keep their keys
 * (level-claims.ts), so an origin's backlog is its keys due by now less its claims due by
 * now, and its next time the first of its keys not claimed. An origin's kept first time
 * may be early, but only when it is by now (level-places.ts); it is never late.
 *
 * @example
 * const stats = await levelStats(places, leases, bins.counts, Date.now());
 */
export async function levelStats(places: LevelPlaces, leases: Leases, bins: readonly number[], now: number): Promise<QueueStats> {
	let size = 0;
	for (const count of bins) size += count;
	const by = keyTime(now + 1);
	const claimedDue = leases.dueBefore(by);
	let hosts = 0;
	let backlog = 0;
	let next: number | undefined;
	const depths: Array<{ origin: string; depth: number }> = [];
	for await (const [origin, host] of places.hostEntries()) {
		if (host.n <= 0) continue;
		hosts++;
		const first = host.f === undefined ? await places.keys.first(origin) : host.f >= 0 ? host.f : undefined;
		if (first === undefined) continue;
		// A first time by now may be early (level-places.ts): the origin's first key not claimed is read from its head.
		const unclaimed = leases.count(origin) > 0 || first < by ? (await places.keys.unclaimed(origin, 1, 0))[0]?.due : first;
		if (unclaimed !== undefined) next = Math.min(next ?? Infinity, unclaimed);
		// An origin whose first URL is not due yet has none due.
		if (backlog < BACKLOG_COUNTED && first < by) {
			const claimed = claimedDue.get(origin) ?? 0;
			const depth = Math.max(0, (await countKeys(places, `${origin}${SEP}`, `${origin}${SEP}${pad(by)}`, BACKLOG_COUNTED - backlog + claimed)) - claimed);
			backlog += depth;
			if (depth > 0) depths.push({ origin, depth });
		}
	}
	depths.sort((a, b) => b.depth - a.depth || (a.origin < b.origin ? -1 : 1));
	return { size, backlog: Math.min(backlog, BACKLOG_COUNTED), claimed: leases.size, hosts, next, depths: depths.slice(0, DEPTH_ORIGINS) };
}

/** Keys of `at` in [gte, lt), up to `limit`: read a thousand at a time, not one promise each. */
async function countKeys(places: LevelPlaces, gte: string, lt: string, limit: number): Promise<number> {
	const keys = places.at.keys({ gte, lt, limit });
	let count = 0;
	try {
		for (let got = await keys.nextv(1000); got.length > 0; got = await keys.nextv(1000)) count += got.length;
	} finally {
		await keys.close();
	}
	return count;
}
