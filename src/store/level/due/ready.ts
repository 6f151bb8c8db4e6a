import { SEP, type Sub } from './keys.js';

/** Keys of `ready` kept in memory at most: every origin, for a schedule of up to this many. */
const KEPT = 4096;
/** Keys read from the database at a time past what is kept. */
const CHUNK = 64;

/**
 * The first keys of the LevelDB schedule's `ready` (origins by when they may next be
 * asked), kept in memory, so that a claim reads them without a LevelDB iterator: a claim
 * at full speed comes with every batch of verdicts, and an iterator each time was about a
 * tenth of the main thread's LevelDB time (bench/WATCH-SPEED.md). One process holds the
 * database, so the keys kept are exact: every `ready` key the schedule writes or deletes
 * goes through `put` and `del` (level-places.ts). Every key up to `last` is kept; past it
 * (more than KEPT origins) they are read from the database.
 *
 * @example
 * const ready = new ReadyHead(sub);
 * for await (const origin of ready.origins(pad(now + 1))) ...
 */
export class ReadyHead {
	readonly #ready: Sub<string>;
	readonly #kept: number;
	/** Keys in order; undefined until read. */
	#keys: string[] | undefined;
	/** The last key kept when there are more in the database; undefined when every key is kept. */
	#last: string | undefined;

	constructor(ready: Sub<string>, kept = KEPT) {
		this.#ready = ready;
		this.#kept = kept;
	}

	/** A key written (with the write that writes it). */
	put(key: string): void {
		const keys = this.#keys;
		if (!keys || (this.#last !== undefined && key > this.#last)) return;
		const at = position(keys, key);
		if (keys[at] !== key) keys.splice(at, 0, key);
		if (keys.length > this.#kept) {
			keys.length = this.#kept;
			this.#last = keys.at(-1);
		}
	}

	/** A key deleted. */
	del(key: string): void {
		const keys = this.#keys;
		if (!keys) return;
		const at = position(keys, key);
		if (keys[at] === key) keys.splice(at, 1);
		// Nothing kept of a longer list: read it again when next asked.
		if (keys.length === 0 && this.#last !== undefined) this.#keys = undefined;
	}

	/** After a failed write: what is kept may be ahead of the database. */
	forget(): void {
		this.#keys = undefined;
	}

	/** The origins in `ready` order, those with keys before `lt` (all when undefined), at most `limit`. */
	async *origins(lt?: string, limit = Infinity): AsyncGenerator<string> {
		const keys = this.#keys ?? (await this.#read());
		const last = this.#last;
		const end = lt === undefined ? keys.length : position(keys, lt);
		// A copy: the caller may write (and so move keys) between two origins.
		const kept = keys.slice(0, Math.min(end, limit));
		for (const key of kept) yield originOf(key);
		let left = limit - kept.length;
		if (last === undefined || left <= 0 || (lt !== undefined && last >= lt)) return;
		const more = this.#ready.keys(lt === undefined ? { gt: last } : { gt: last, lt });
		try {
			for (let chunk = await more.nextv(Math.min(CHUNK, left)); chunk.length > 0 && left > 0; chunk = await more.nextv(Math.min(CHUNK, left))) {
				for (const key of chunk) yield originOf(key);
				left -= chunk.length;
			}
		} finally {
			await more.close();
		}
	}

	async #read(): Promise<string[]> {
		const keys = await this.#ready.keys({ limit: this.#kept + 1 }).all();
		this.#last = keys.length > this.#kept ? keys[this.#kept - 1] : undefined;
		if (keys.length > this.#kept) keys.length = this.#kept;
		this.#keys = keys;
		return keys;
	}
}

const originOf = (key: string): string => key.slice(key.indexOf(SEP) + 1);

/** Where `key` is or would go in `keys` (binary search; keys are ASCII, so string order is LevelDB's byte order). */
function position(keys: readonly string[], key: string): number {
	let low = 0;
	let high = keys.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		if (keys[mid]! < key) low = mid + 1;
		else high = mid;
	}
	return low;
}
