import type { Leases } from './claims.js';
import { dueOfKey, rangeOf, urlOfKey, type Sub } from './keys.js';

/** One URL of an origin's `at` range, as the LevelDB schedule keys it. */
export interface HeadItem {
	key: string;
	/** Due time as the key holds it (whole ms). */
	due: number;
	url: string;
	/** Its rate bin (the key's value). */
	bin: number;
}

/** The first keys of one origin: every key of the origin up to `last` is in `items`, in key order; `last` undefined means every key of the origin is. */
export interface Head {
	items: HeadItem[];
	last: string | undefined;
}

/**
 * The first few `at` keys of recently claimed origins, kept in memory so that a claim of
 * one or two URLs of an origin (the usual claim at full speed, where a place under
 * --per-host frees up at a time) needs no LevelDB iterator. It is kept exact: every key
 * the schedule writes or deletes goes through `put` and `del`. Bounded: at most
 * `maxItems` keys per origin (the rest is read again when needed) and `maxOrigins` origins.
 *
 * @example
 * const heads = new OriginHeads();
 * heads.set(origin, itemsRead, itemsRead.length < limit);
 * heads.del(origin, claimedKey);
 */
export class OriginHeads {
	readonly #heads = new Map<string, Head>();
	readonly #maxOrigins: number;
	readonly #maxItems: number;

	constructor(maxOrigins = 1000, maxItems = 128) {
		this.#maxOrigins = maxOrigins;
		this.#maxItems = maxItems;
	}

	get(origin: string): Head | undefined {
		return this.#heads.get(origin);
	}

	/** Keeps the first keys of `origin`, as just read from the database in key order; `complete` when they are all it has. */
	set(origin: string, items: HeadItem[], complete: boolean): void {
		if (!this.#heads.has(origin) && this.#heads.size >= this.#maxOrigins) this.#heads.clear();
		const head: Head = { items, last: complete ? undefined : items.at(-1)?.key };
		// An incomplete read of nothing says nothing: keep no head.
		if (!complete && items.length === 0) return void this.#heads.delete(origin);
		this.#heads.set(origin, head);
		this.#trim(head);
	}

	/** A key written: kept when it falls within what the head covers. */
	put(origin: string, item: HeadItem): void {
		const head = this.#heads.get(origin);
		if (!head || (head.last !== undefined && item.key > head.last)) return;
		const at = position(head.items, item.key);
		if (head.items[at]?.key === item.key) head.items[at] = item;
		else head.items.splice(at, 0, item);
		this.#trim(head);
	}

	/** A key deleted. */
	del(origin: string, key: string): void {
		const head = this.#heads.get(origin);
		if (!head) return;
		const at = position(head.items, key);
		if (head.items[at]?.key === key) head.items.splice(at, 1);
	}

	clear(): void {
		this.#heads.clear();
	}

	#trim(head: Head): void {
		if (head.items.length <= this.#maxItems) return;
		head.items.length = this.#maxItems;
		head.last = head.items.at(-1)!.key;
	}
}

/** Where `key` is or would go in `items` (binary search; keys are ASCII, so string order is LevelDB's byte order). */
function position(items: readonly HeadItem[], key: string): number {
	let low = 0;
	let high = items.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		if (items[mid]!.key < key) low = mid + 1;
		else high = mid;
	}
	return low;
}

/**
 * Reads of one origin's `at` keys in due order for the LevelDB schedule: through its head
 * where it has one, the claimed URLs (level-claims.ts) passed over.
 *
 * @example
 * const keys = new OriginKeys(at, heads, leases);
 * const [first] = await keys.unclaimed('https://a.test', 1, 0);
 */
export class OriginKeys {
	readonly #at: Sub<number>;
	readonly #heads: OriginHeads;
	readonly #leases: Leases;

	constructor(at: Sub<number>, heads: OriginHeads, leases: Leases) {
		this.#at = at;
		this.#heads = heads;
		this.#leases = leases;
	}

	/**
	 * Up to `want` of the origin's URLs that are not claimed, in due order: from its head
	 * (read again, `readAhead` keys more, when it holds too few), and past it when its
	 * claimed URLs fill it.
	 */
	async unclaimed(origin: string, want: number, readAhead: number): Promise<HeadItem[]> {
		const claimed = this.#leases.count(origin);
		let head = this.#heads.get(origin);
		if (!head || (head.last !== undefined && head.items.length < want + claimed)) head = await this.#readHead(origin, want + claimed + 1 + readAhead);
		const found: HeadItem[] = [];
		for (const item of head.items) {
			if (this.#leases.has(item.url)) continue;
			found.push(item);
			if (found.length >= want) return found;
		}
		for (let from = head.last; from !== undefined && found.length < want; ) {
			const items = await this.#read(origin, from, 256);
			for (const item of items) if (!this.#leases.has(item.url) && found.length < want) found.push(item);
			from = items.length < 256 ? undefined : items.at(-1)!.key;
		}
		return found;
	}

	/** The due time of the origin's first `at` key, as the database has it (undefined for none). */
	async first(origin: string): Promise<number | undefined> {
		return (await this.#read(origin, undefined, 1))[0]?.due;
	}

	/** Reads the origin's first `limit` `at` keys as its head. */
	async #readHead(origin: string, limit: number): Promise<Head> {
		const items = await this.#read(origin, undefined, limit);
		this.#heads.set(origin, items, items.length < limit);
		return this.#heads.get(origin) ?? { items, last: undefined };
	}

	/** Up to `limit` of the origin's `at` keys, after `after` (from its first when undefined). */
	async #read(origin: string, after: string | undefined, limit: number): Promise<HeadItem[]> {
		const range = rangeOf(origin);
		const keys = this.#at.iterator(after === undefined ? { ...range, limit } : { gt: after, lt: range.lt, limit });
		try {
			return (await keys.nextv(limit)).map(([key, bin]) => ({ key, due: dueOfKey(origin, key), url: urlOfKey(origin, key), bin }));
		} finally {
			await keys.close();
		}
	}
}
