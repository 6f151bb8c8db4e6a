/** URLs per script call: a long batch is several calls, so that Redis serves others between them. */
export const CHUNK = 1_000;

/**
 * Runs `each` on `items` CHUNK groups of `width` at a time (a URL's `width` arguments
 * stay in one call), one call after another.
 *
 * @example
 * await inChunks(urls, 1, (chunk) => link.eval(REMOVE, [base], chunk));
 */
export async function inChunks<T>(items: readonly T[], width: number, each: (chunk: T[]) => Promise<unknown>): Promise<void> {
	for (let i = 0; i < items.length; i += CHUNK * width) await each(items.slice(i, i + CHUNK * width));
}

/**
 * Runs `each` on every shard that `items` fall in (by `shardsOf`; an item may fall in
 * several), the shards in parallel since each is its own script on its own node; returns
 * the results in shard order.
 *
 * @example
 * await eachShard(urls, (url) => shardsOfUrl(url, 16), (shard, group) => remove(shard, group));
 */
export async function eachShard<T, R>(items: readonly T[], shardsOf: (item: T) => number[], each: (shard: number, items: T[]) => Promise<R>): Promise<R[]> {
	const groups = new Map<number, T[]>();
	for (const item of items) {
		for (const shard of shardsOf(item)) {
			const group = groups.get(shard);
			if (group) group.push(item);
			else groups.set(shard, [item]);
		}
	}
	return Promise.all([...groups].sort(([a], [b]) => a - b).map(([shard, group]) => each(shard, group)));
}
