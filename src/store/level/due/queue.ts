import { LocalTurns } from '../../due/turns.js';
import { StoreError } from '../../../base/errors/index.js';
import {
	binRate,
	chooseClock,
	type Claim,
	type ClaimOptions,
	type ClaimRef,
	type DueEntry,
	type DueQueue,
	type QueueClock,
	type QueueStats,
} from '../../model/due.js';
import { queueNow } from '../../due/clock.js';
import { OriginHeads } from './heads.js';
import { claimAhead, claimDue, Leases } from './claims.js';
import { LevelListings } from './listings.js';
import { RateBins } from './bins.js';
import { LevelPlaces, type Places } from './places.js';
import { BacklogMemo, levelStats } from './stats.js';
import { put, SEP, type Db, type Op, type Place, type Sub } from './keys.js';

/**
 * The watch schedule on an abstract-level database (the LevelDB store's, or memory-level
 * for the memory store), in sublevels of `due` (level-keys.ts has the layout):
 * - `at`: `origin, due, url`, so that each origin's URLs are in due order (URLFrontier's layout);
 * - `ready`: `time, origin`, each origin with URLs, by when it may next be asked;
 * - `url`, `host`: where each URL and origin is now, to move them;
 * - `src`: which input listed which URL (level-listings.ts); `meta`: the clock, saved values, the rate histogram.
 * One process holds the database, so the claims are held in memory only (level-claims.ts):
 * a claimed URL's `at` key stays in place, and a claim writes nothing (but an origin's
 * last claim time, where it has a gap). A process killed mid-check leaves its claimed
 * URLs due, as they were: nothing is restored, and nothing is lost.
 *
 * @example
 * const queue = await LevelDueQueue.open(db, { at0: Date.now(), wall0: Date.now(), scale: 1 });
 */
export class LevelDueQueue implements DueQueue {
	/** One process holds a LevelDB directory (memory-level: one process by nature). */
	readonly shared = false;
	/** Ends claims as `done` does, in one write with the store's own operations (a LevelDB store: a kill leaves both or neither). */
	readonly doneWith?: DueQueue['doneWith'];
	readonly #db: Db;
	#clock: QueueClock;
	readonly #places: LevelPlaces;
	readonly #meta: Sub<unknown>;
	readonly #legacyClaims: Sub<Place>;
	readonly #listings: LevelListings;
	readonly #leases = new Leases();
	readonly #heads = new OriginHeads();
	readonly #bins: RateBins;
	#slot: number | undefined;
	/** One operation at a time: each reads what the one before wrote. */
	#chain: Promise<unknown> = Promise.resolve();
	readonly #turns = new LocalTurns();
	/** A deep backlog's last count, used again for a while (level-stats.ts). */
	readonly #backlog = new BacklogMemo();

	private constructor(
		db: Db,
		clock: QueueClock,
		subs: Places & { meta: Sub<unknown>; claims: Sub<Place>; sources: Sub<number> },
		bins: RateBins,
		records?: (operations: readonly unknown[]) => Op[],
	) {
		this.#db = db;
		this.#clock = clock;
		this.#meta = subs.meta;
		this.#legacyClaims = subs.claims;
		this.#bins = bins;
		this.#places = new LevelPlaces(db, subs, { heads: this.#heads, leases: this.#leases, bins, now: () => queueNow(this.#clock) });
		this.#listings = new LevelListings(db, subs.sources);
		if (records) this.doneWith = (entries, operations) => this.#serial(() => this.#placeDone(entries, records(operations)));
	}

	/**
	 * Opens the schedule in `db`. `records` turns the store's own operations into
	 * operations on `db`, for `doneWith`: given by a store whose records are in `db`.
	 */
	static async open(db: Db, clock: QueueClock, records?: (operations: readonly unknown[]) => Op[]): Promise<LevelDueQueue> {
		const root = db.sublevel<string, unknown>('due', { valueEncoding: 'json' }) as unknown as Db;
		const sub = <V>(name: string): Sub<V> => root.sublevel<string, V>(name, { valueEncoding: 'json' }) as unknown as Sub<V>;
		const subs = {
			at: sub<number>('at'),
			ready: sub<string>('ready'),
			urls: sub<Place>('url'),
			hosts: sub<never>('host'),
			claims: sub<Place>('claim'),
			sources: sub<number>('src'),
			meta: sub<unknown>('meta'),
		};
		const queue = new LevelDueQueue(db, clock, subs as never, await RateBins.open(subs.meta, subs.urls), records);
		await queue.#restore();
		return queue;
	}

	/** Claims written by a revisit before claims were held in memory, left by a process killed mid-check: their URLs go back where they were. */
	async #restore(): Promise<void> {
		const left: Array<[string, Place]> = [];
		for await (const entry of this.#legacyClaims.iterator()) left.push(entry);
		if (left.length === 0) return;
		const back = left.map(([url, place]): DueEntry => ({ url, origin: place.o, due: place.d, rate: binRate(place.b), notBefore: place.n }));
		await this.#places.place(
			back,
			false,
			left.map(([url]) => ({ type: 'del', sublevel: this.#legacyClaims, key: url })),
		);
	}

	/** Writes what is kept in memory only between writes (the rate histogram): the store calls it before it closes. */
	close(): Promise<void> {
		return this.#serial(() => this.#bins.close());
	}

	#serial<T>(work: () => Promise<T>): Promise<T> {
		const next = this.#chain.then(work, work);
		this.#chain = next.catch(() => {});
		return next.catch((error: unknown) => {
			// A failed write may have left the caches ahead of the database.
			this.#places.forget();
			this.#heads.clear();
			this.#bins.reset();
			throw error instanceof StoreError
				? error
				: new StoreError('STORE_WRITE_FAILED', `the watch schedule failed: ${(error as Error).message}`, { cause: error });
		});
	}

	async now(): Promise<number> {
		return queueNow(this.#clock);
	}

	adoptClock(clock: QueueClock, reset: boolean): Promise<QueueClock> {
		return this.#serial(async () => {
			this.#clock = chooseClock((await this.#meta.get('clock')) as QueueClock | undefined, clock, reset);
			await this.#meta.put('clock', this.#clock);
			return this.#clock;
		});
	}

	put(entries: readonly DueEntry[]): Promise<void> {
		return this.#serial(() => {
			this.#backlog.took(entries);
			return this.#places.place(entries, false);
		});
	}

	done(entries: readonly DueEntry[]): Promise<void> {
		return this.#serial(() => this.#placeDone(entries));
	}

	#placeDone(entries: readonly DueEntry[], extra?: Op[]): Promise<void> {
		// A claimed URL left the backlog when it was claimed: only a `done` without a token may move one that was not.
		this.#backlog.took(entries.filter((entry) => entry.token === undefined));
		return this.#places.place(entries, true, extra);
	}

	remove(urls: readonly string[]): Promise<void> {
		return this.#serial(() => {
			this.#backlog.took(urls.map(() => ({})));
			return this.#places.remove(urls);
		});
	}

	release(entries: readonly ClaimRef[]): Promise<void> {
		// The URLs' keys never left their places: ending the claims is all there is to do.
		return this.#serial(async () => void entries.forEach((entry) => this.#leases.end(entry)));
	}

	claim(options: ClaimOptions): Promise<Claim> {
		return this.#serial(async () => {
			const now = queueNow(this.#clock);
			this.#leases.expire(now);
			const entries = await claimDue(this.#places, this.#leases, options, now, this.#tokens(options, now));
			this.#backlog.took(entries);
			this.#slot! += entries.length / options.rate;
			return { now, entries };
		});
	}

	claimAhead(options: ClaimOptions): Promise<Claim> {
		return this.#serial(async () => {
			const now = queueNow(this.#clock);
			const entries = await claimAhead(this.#places, this.#leases, options, now, this.#tokens(options, now));
			this.#backlog.took(entries);
			this.#slot! += entries.length / options.rate;
			return { now, entries };
		});
	}

	/** Pacing: a slot per check, `burst` of them saved up at most; how many have come by `now`. */
	#tokens(options: ClaimOptions, now: number): number {
		const interval = 1 / options.rate;
		this.#slot = Math.max(this.#slot ?? -Infinity, now - options.burst * interval);
		return Math.min(options.max, Math.floor((now - this.#slot) / interval) + 1);
	}

	async saved(name: string): Promise<unknown> {
		return this.#meta.get(`saved${SEP}${name}`);
	}

	save(name: string, value: unknown): Promise<void> {
		return this.#serial(() => this.#db.batch([put(this.#meta, `saved${SEP}${name}`, value)] as never));
	}

	turn(origin: string, gapMs: number, holdMs: number, token: string): Promise<number> {
		return this.#turns.turn(origin, gapMs, holdMs, token);
	}

	sent(origin: string, gapMs: number, token: string): Promise<void> {
		return this.#turns.sent(origin, gapMs, token);
	}

	gap(origin: string, ms: number): Promise<void> {
		return this.#serial(() => this.#places.gap(origin, ms));
	}

	mark(source: string, urls: readonly string[], generation: number): Promise<void> {
		return this.#serial(() => this.#listings.mark(source, urls, generation));
	}

	sweepOut(source: string, generation: number): Promise<string[]> {
		return this.#serial(() => this.#listings.stale(source, generation)).then(async (gone) => {
			await this.remove(gone);
			return gone;
		});
	}

	async has(urls: readonly string[]): Promise<boolean[]> {
		return (await this.#places.urls.getMany([...urls])).map((place) => place !== undefined);
	}

	async rateBins(): Promise<number[]> {
		return [...this.#bins.counts];
	}

	stats(): Promise<QueueStats> {
		return this.#serial(() => levelStats(this.#places, this.#leases, this.#bins.counts, queueNow(this.#clock), { memo: this.#backlog, wall: Date.now() }));
	}
}
