import type { RedisLink } from '../link.js';
import { CHUNK, inChunks } from './batches.js';
import { dueKey } from './keys.js';
import { SWEEP } from './scripts.js';

/**
 * Which input listed which URL, for the watch schedule on Redis: `P{due}:src:SOURCE`, URL →
 * the input's reading number that last listed it, and `P{due}:srcs`, the sources' names
 * (see `DueQueue.mark` and `sweepOut`). They are under the schedule's base key, not a
 * shard's: a sweep takes what it finds out of the schedule shard by shard afterwards.
 *
 * @example
 * const listings = new RedisListings(link, 'revisit:{due}');
 * await listings.mark('urls.txt', ['https://a.test/'], 1);
 * await listings.sweep('urls.txt', 2, (urls) => queue.remove(urls)); // ['https://a.test/']
 */
export class RedisListings {
	readonly #link: RedisLink;
	/** `P{due}`. */
	readonly #base: string;

	constructor(link: RedisLink, base: string) {
		this.#link = link;
		this.#base = base;
	}

	async mark(source: string, urls: readonly string[], generation: number): Promise<void> {
		// The sources' names too: a sweep of one keeps the URLs the others list.
		if (urls.length > 0) await this.#link.write([['SADD', dueKey(this.#base, 'srcs'), source]]);
		await inChunks(urls, 1, (chunk) => this.#link.write([['HSET', dueKey(this.#base, 'src', source), ...chunk.flatMap((url) => [url, String(generation)])]]));
	}

	/**
	 * Takes out of `source`'s listing what it listed before `generation` and not since, and
	 * those of them no other source lists out of the schedule (`remove`); returns those.
	 */
	async sweep(source: string, generation: number, remove: (urls: string[]) => Promise<void>): Promise<string[]> {
		const key = dueKey(this.#base, 'src', source);
		const gone = new Set<string>();
		// HSCAN may give a field twice, and deleting while scanning is allowed: the script checks each one again.
		let cursor = '0';
		do {
			const [next, flat] = await this.#link.read<[string, string[]]>(['HSCAN', key, cursor, 'COUNT', String(CHUNK)]);
			cursor = next;
			const stale: string[] = [];
			for (let i = 0; i < flat.length; i += 2) if (Number(flat[i + 1]) < generation && !gone.has(flat[i]!)) stale.push(flat[i]!);
			if (stale.length === 0) continue;
			// Out of the listing first, then out of the schedule: on a Cluster they are on different nodes.
			const unlisted = await this.#link.eval<string[]>(SWEEP, [this.#base], [source, String(generation), ...stale]);
			await remove(unlisted);
			for (const url of unlisted) gone.add(url);
		} while (cursor !== '0');
		return [...gone];
	}
}
