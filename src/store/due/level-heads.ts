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
