import { BACKLOG_COUNTED, DEPTH_ORIGINS, RATE_BINS, type QueueStats } from '../../model/due.js';

/** A shard's STATS reply (redis-scripts.ts): size, backlog, claimed, hosts, its first due time or '', then origin and depth pairs. */
export type ShardStats = [number, number, number, number, string, ...Array<string | number>];

/**
 * The schedule's stats from its shards' STATS replies: the counts added up (the backlog
 * up to BACKLOG_COUNTED, as each shard counts it), the earliest due time, and the
 * DEPTH_ORIGINS deepest origins over all of them.
 *
 * @example
 * addStats([[3, 1, 0, 2, '120', 'https://a.test', 1]])
 * // { size: 3, backlog: 1, claimed: 0, hosts: 2, next: 120, depths: [{ origin: 'https://a.test', depth: 1 }] }
 */
export function addStats(replies: readonly ShardStats[]): QueueStats {
	const total: QueueStats = { size: 0, backlog: 0, claimed: 0, hosts: 0, next: undefined, depths: [] };
	for (const [size, backlog, claimed, hosts, next, ...flat] of replies) {
		total.size += Number(size);
		total.backlog = Math.min(BACKLOG_COUNTED, total.backlog + Number(backlog));
		total.claimed += Number(claimed);
		total.hosts += Number(hosts);
		if (next !== '' && (total.next === undefined || Number(next) < total.next)) total.next = Number(next);
		for (let i = 0; i + 1 < flat.length; i += 2) total.depths!.push({ origin: String(flat[i]), depth: Number(flat[i + 1]) });
	}
	total.depths = total.depths!.sort((a, b) => b.depth - a.depth || (a.origin < b.origin ? -1 : 1)).slice(0, DEPTH_ORIGINS);
	return total;
}

/**
 * The rate histogram from each shard's part of it (HGETALL of `S:bins`: bin, count, …).
 *
 * @example
 * addBins([['0', '2'], ['0', '1', '3', '4']]) // [3, 0, 0, 4, 0, …]
 */
export function addBins(shards: ReadonlyArray<readonly string[]>): number[] {
	const bins = new Array<number>(RATE_BINS).fill(0);
	for (const flat of shards) {
		for (let i = 0; i < flat.length; i += 2) bins[Number(flat[i])]! += Number(flat[i + 1]);
	}
	return bins;
}
