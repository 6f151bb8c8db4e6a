import { BACKLOG_COUNTED, DEPTH_ORIGINS, type QueueStats } from '../../model/due.js';
import type { Leases } from './claims.js';
import type { LevelPlaces } from './places.js';
import { keyTime, pad, SEP } from './keys.js';

/** Keys counted past BACKLOG_COUNTED, so that a count that reached it holds for that many URLs taken from the backlog. */
const SLACK = 50_000;
/** Longest a count is used again (wall ms), however much it has to spare. */
const REUSE_WALL_MS = 30_000;

/**
 * The last count of a backlog that reached BACKLOG_COUNTED, used again while it still says
 * "at least BACKLOG_COUNTED": a deep backlog was read key by key with every `stats`
 * (every 2 s in a watch), 100,000 keys each time, about 4% of a watch's main thread at
 * full speed (bench/WATCH-SPEED.md). Every URL that may have left the backlog since (claimed,
 * moved, removed) is taken off the count, so what it says is never more than the
 * backlog; URLs that fell due since are not added, so it is counted again within
 * REUSE_WALL_MS, or as soon as it could fall under BACKLOG_COUNTED.
 *
 * @example
 * const memo = new BacklogMemo();
 * memo.took([{ origin: 'https://a.test' }]); // a claim
 */
export class BacklogMemo {
	#count: { backlog: number; depths: Map<string, number>; wall: number } | undefined;
	#taken = 0;
	readonly #takenBy = new Map<string, number>();

	/** URLs that may have left the backlog; those without an origin count against the total only. */
	took(entries: ReadonlyArray<{ origin?: string | undefined }>): void {
		if (!this.#count) return;
		this.#taken += entries.length;
		for (const { origin } of entries) if (origin !== undefined) this.#takenBy.set(origin, (this.#takenBy.get(origin) ?? 0) + 1);
	}

	/** The last count less what was taken since, while it still reaches BACKLOG_COUNTED and is recent enough. */
	reuse(wall: number): { backlog: number; depths: Array<{ origin: string; depth: number }> } | undefined {
		const count = this.#count;
		if (!count || count.backlog - this.#taken < BACKLOG_COUNTED || wall - count.wall > REUSE_WALL_MS || wall < count.wall) return undefined;
		const depths = [...count.depths].map(([origin, depth]) => ({ origin, depth: depth - (this.#takenBy.get(origin) ?? 0) })).filter((row) => row.depth > 0);
		return { backlog: count.backlog - this.#taken, depths };
	}

	/** A count just made: kept for `reuse` when it reached BACKLOG_COUNTED. */
	counted(backlog: number, depths: ReadonlyArray<{ origin: string; depth: number }>, wall: number): void {
		this.#taken = 0;
		this.#takenBy.clear();
		this.#count = backlog >= BACKLOG_COUNTED ? { backlog, depths: new Map(depths.map((row) => [row.origin, row.depth])), wall } : undefined;
	}
}

/**
 * The LevelDB schedule's size as `DueQueue.stats` gives it. Claimed URLs keep their keys
 * (level-claims.ts), so an origin's backlog is its keys due by now less its claims due by
 * now, and its next time the first of its keys not claimed. An origin's kept first time
 * may be early, but only when it is by now (level-places.ts); it is never late.
 *
 * A backlog of at least BACKLOG_COUNTED is counted again only when `memo` says so.
 *
 * @example
 * const stats = await levelStats(places, leases, bins.counts, Date.now(), { memo, wall: Date.now() });
 */
export async function levelStats(
	places: LevelPlaces,
	leases: Leases,
	bins: readonly number[],
	now: number,
	counting: { memo: BacklogMemo; wall: number },
): Promise<QueueStats> {
	let size = 0;
	for (const count of bins) size += count;
	const by = keyTime(now + 1);
	const claimedDue = leases.dueBefore(by);
	let hosts = 0;
	let backlog = 0;
	let next: number | undefined;
	const reused = counting.memo.reuse(counting.wall);
	const limit = BACKLOG_COUNTED + SLACK;
	let depths: Array<{ origin: string; depth: number }> = [];
	for await (const [origin, host] of places.hostEntries()) {
		if (host.n <= 0) continue;
		hosts++;
		const first = host.f === undefined ? await places.keys.first(origin) : host.f >= 0 ? host.f : undefined;
		if (first === undefined) continue;
		// A first time by now may be early (level-places.ts): the origin's first key not claimed is read from its head.
		const unclaimed = leases.count(origin) > 0 || first < by ? (await places.keys.unclaimed(origin, 1, 0))[0]?.due : first;
		if (unclaimed !== undefined) next = Math.min(next ?? Infinity, unclaimed);
		// An origin whose first URL is not due yet has none due.
		if (!reused && backlog < limit && first < by) {
			const claimed = claimedDue.get(origin) ?? 0;
			const depth = Math.max(0, (await countKeys(places, `${origin}${SEP}`, `${origin}${SEP}${pad(by)}`, limit - backlog + claimed)) - claimed);
			backlog += depth;
			if (depth > 0) depths.push({ origin, depth });
		}
	}
	if (reused) ({ backlog, depths } = reused);
	else counting.memo.counted(backlog, depths, counting.wall);
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
