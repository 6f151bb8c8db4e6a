import type { AbstractLevel, AbstractSublevel } from 'abstract-level';
import { StoreError } from '../../errors/index.js';
import { binRate, chooseClock, DEPTH_ORIGINS, RATE_BINS, rateBin, type Claim, type ClaimOptions, type DueEntry, type DueQueue, type QueueClock, type QueueStats } from './types.js';
import { queueNow } from './clock.js';

// Any abstract-level database: a LevelDB directory (classic-level) or memory-level.
type Db = AbstractLevel<string | Buffer | Uint8Array, string, unknown>;
type Sub<V> = AbstractSublevel<Db, string | Buffer | Uint8Array, string, V>;

/** A URL's place, as `url` keeps it: origin, due time, rate bin. */
interface Place {
	o: string;
	d: number;
	b: number;
}

/** An origin's entry: when it may next be asked (`r`, also its key in `ready`), its gap, and its URLs. */
interface HostPlace {
	r: number;
	g: number;
	n: number;
	/** When it was last claimed from. */
	c?: number;
}

/** The backlog is counted up to this many URLs (a count over a million due URLs is "at least a million"). */
export const BACKLOG_COUNTED = 1_000_000;

const SEP = '\x00';
const END = '\x01';
const pad = (time: number): string => Math.max(0, Math.round(time)).toString().padStart(15, '0');
const atKey = (origin: string, due: number, url: string): string => `${origin}${SEP}${pad(due)}${SEP}${url}`;
const readyKey = (ready: number, origin: string): string => `${pad(ready)}${SEP}${origin}`;

/**
 * The watch schedule on an abstract-level database (the LevelDB store's, or memory-level
 * for the memory store), in sublevels of `due`:
 * - `at`: `origin, due, url`, so that each origin's URLs are in due order (URLFrontier's layout);
 * - `ready`: `time, origin`, each origin that has unclaimed URLs, by when it may next be asked;
 * - `url`, `host`: where each URL and origin is now, to move them; `claim`: the claims;
 * - `src`: which input listed which URL; `meta`: the rate histogram.
 * One process holds the database, so claims are counted in memory and the rate is
 * paced here; claims are also written down, and go back to the schedule when the queue
 * is next opened (a process killed mid-check loses none of them).
 *
 * @example
 * const queue = await LevelDueQueue.open(db, { at0: Date.now(), wall0: Date.now(), scale: 1 });
 */
export class LevelDueQueue implements DueQueue {
	readonly #db: Db;
	#clock: QueueClock;
	readonly #at: Sub<number>;
	readonly #ready: Sub<string>;
	readonly #urls: Sub<Place>;
	readonly #hosts: Sub<HostPlace>;
	readonly #claims: Sub<Place>;
	readonly #sources: Sub<number>;
	readonly #meta: Sub<number[]>;
	/** Claimed URLs: lease end, and the origin's count of them. */
	readonly #leases = new Map<string, number>();
	readonly #claimedPer = new Map<string, number>();
	#bins: number[] = new Array<number>(RATE_BINS).fill(0);
	#slot: number | undefined;
	/** One operation at a time: each reads what the one before wrote. */
	#chain: Promise<unknown> = Promise.resolve();

	private constructor(db: Db, clock: QueueClock) {
		this.#db = db;
		this.#clock = clock;
		const root = db.sublevel<string, unknown>('due', { valueEncoding: 'json' }) as unknown as Db;
		const sub = <V>(name: string): Sub<V> => root.sublevel<string, V>(name, { valueEncoding: 'json' }) as unknown as Sub<V>;
		this.#at = sub('at');
		this.#ready = sub('ready');
		this.#urls = sub('url');
		this.#hosts = sub('host');
		this.#claims = sub('claim');
		this.#sources = sub('src');
		this.#meta = sub('meta');
	}

	/** Opens the schedule in `db` and returns the claims a killed process left to it. */
	static async open(db: Db, clock: QueueClock): Promise<LevelDueQueue> {
		const queue = new LevelDueQueue(db, clock);
		await queue.#restore();
		return queue;
	}

	async #restore(): Promise<void> {
		this.#bins = (await this.#meta.get('bins')) ?? this.#bins;
		const left: string[] = [];
		for await (const key of this.#claims.keys()) left.push(key);
		if (left.length > 0) await this.#unclaim(left, true);
	}

	#serial<T>(work: () => Promise<T>): Promise<T> {
		const next = this.#chain.then(work, work);
		this.#chain = next.catch(() => {});
		return next.catch((error: unknown) => {
			throw error instanceof StoreError ? error : new StoreError('STORE_WRITE_FAILED', `the watch schedule failed: ${(error as Error).message}`, { cause: error });
		});
	}

	async now(): Promise<number> {
		return queueNow(this.#clock);
	}

	adoptClock(clock: QueueClock, reset: boolean): Promise<QueueClock> {
		return this.#serial(async () => {
			const meta = this.#meta as unknown as Sub<QueueClock | number[]>;
			this.#clock = chooseClock((await meta.get('clock')) as QueueClock | undefined, clock, reset);
			await meta.put('clock', this.#clock);
			return this.#clock;
		});
	}

	put(entries: readonly DueEntry[]): Promise<void> {
		return this.#serial(() => this.#place(entries, false));
	}

	done(entries: readonly DueEntry[]): Promise<void> {
		return this.#serial(() => this.#place(entries, true));
	}

	remove(urls: readonly string[]): Promise<void> {
		return this.#serial(async () => {
			const places = await this.#urls.getMany([...urls]);
			const ops: Op[] = [];
			const touched = new Map<string, number>();
			urls.forEach((url, i) => {
				const place = places[i];
				if (!place) return;
				ops.push(this.#del(this.#urls, url), this.#del(this.#at, atKey(place.o, place.d, url)));
				this.#bins[place.b]!--;
				touched.set(place.o, (touched.get(place.o) ?? 0) - 1);
			});
			await this.#commit(ops, touched, new Map());
		});
	}

	/** Puts entries in place; `ending` also ends their claims (a URL removed while claimed is not put back). */
	async #place(entries: readonly DueEntry[], ending: boolean): Promise<void> {
		const urls = entries.map((entry) => entry.url);
		const places = await this.#urls.getMany(urls);
		const ops: Op[] = [];
		const touched = new Map<string, number>();
		const firsts = new Map<string, number>();
		const seen = new Set<string>();
		entries.forEach((entry, i) => {
			if (seen.has(entry.url)) return;
			seen.add(entry.url);
			const old = places[i];
			const claimed = this.#leases.has(entry.url);
			if (ending) {
				ops.push(this.#del(this.#claims, entry.url));
				if (claimed) {
					this.#leases.delete(entry.url);
					this.#claimedPer.set(entry.origin, (this.#claimedPer.get(entry.origin) ?? 1) - 1);
				}
				if (!old) return;
			}
			const bin = rateBin(entry.rate);
			if (old) {
				this.#bins[old.b]!--;
				if (!claimed || ending) ops.push(this.#del(this.#at, atKey(old.o, old.d, entry.url)));
				if (old.o !== entry.origin) touched.set(old.o, (touched.get(old.o) ?? 0) - 1);
			}
			if (!old || old.o !== entry.origin) touched.set(entry.origin, (touched.get(entry.origin) ?? 0) + 1);
			this.#bins[bin]!++;
			const place: Place = { o: entry.origin, d: entry.due, b: bin };
			ops.push({ type: 'put', sublevel: this.#urls, key: entry.url, value: place });
			// A claimed URL moved by `put` keeps its claim: it goes back at its new time when done.
			if (claimed && !ending) ops.push({ type: 'put', sublevel: this.#claims, key: entry.url, value: place });
			else {
				ops.push({ type: 'put', sublevel: this.#at, key: atKey(entry.origin, entry.due, entry.url), value: bin });
				firsts.set(entry.origin, Math.min(firsts.get(entry.origin) ?? Infinity, entry.due));
			}
		});
		await this.#commit(ops, touched, firsts);
	}

	/** Writes `ops` with the hosts they touched: counts moved by `touched`, ready times recomputed. */
	async #commit(ops: Op[], touched: Map<string, number>, firsts: Map<string, number>): Promise<void> {
		const origins = [...new Set([...touched.keys(), ...firsts.keys()])];
		if (origins.length > 0) {
			// The batch first, so that each origin's first unclaimed URL can be read back.
			await this.#db.batch(ops as never);
			ops = [];
			const hosts = await this.#hosts.getMany(origins);
			for (let i = 0; i < origins.length; i++) {
				const origin = origins[i]!;
				const host = hosts[i] ?? { r: 0, g: 0, n: 0 };
				const next: HostPlace = { ...host, n: host.n + (touched.get(origin) ?? 0) };
				ops.push(...(await this.#reready(origin, host, next)));
			}
		}
		ops.push({ type: 'put', sublevel: this.#meta, key: 'bins', value: this.#bins });
		await this.#db.batch(ops as never);
	}

	/** Operations that move `origin` in `ready` to its next time: the later of its gap and its first unclaimed URL. */
	async #reready(origin: string, old: HostPlace | undefined, next: HostPlace): Promise<Op[]> {
		const ops: Op[] = [];
		if (old && old.n > 0 && old.r >= 0) ops.push(this.#del(this.#ready, readyKey(old.r, origin)));
		const first = await this.#firstDue(origin);
		if (next.n <= 0 && first === undefined) return [...ops, this.#del(this.#hosts, origin)];
		next.r = first === undefined ? -1 : Math.max(first, (next.c ?? -Infinity) + next.g);
		ops.push({ type: 'put', sublevel: this.#hosts, key: origin, value: next });
		if (next.r >= 0) ops.push({ type: 'put', sublevel: this.#ready, key: readyKey(next.r, origin), value: origin });
		return ops;
	}

	async #firstDue(origin: string): Promise<number | undefined> {
		for await (const key of this.#at.keys({ gte: `${origin}${SEP}`, lt: `${origin}${END}`, limit: 1 })) return Number(key.slice(origin.length + 1, origin.length + 16));
		return undefined;
	}

	claim(options: ClaimOptions): Promise<Claim> {
		return this.#serial(async () => {
			const now = queueNow(this.#clock);
			const expired = [...this.#leases].filter(([, until]) => until <= now).map(([url]) => url);
			if (expired.length > 0) await this.#unclaim(expired, false);
			// Pacing: a slot per check, `burst` of them saved up at most.
			const interval = 1 / options.rate;
			this.#slot = Math.max(this.#slot ?? -Infinity, now - options.burst * interval);
			let tokens = Math.min(options.max, Math.floor((now - this.#slot) / interval) + 1);
			const entries: DueEntry[] = [];
			// Rounds: each gives every ready origin its share; an origin without a gap may give more in the next.
			while (tokens > 0) {
				const ready: Array<[string, HostPlace]> = [];
				for await (const origin of this.#ready.values({ lt: pad(now + 1) })) {
					if (options.perHost - (this.#claimedPer.get(origin) ?? 0) > 0) ready.push([origin, undefined as never]);
					if (ready.length >= tokens) break;
				}
				if (ready.length === 0) break;
				const hosts = await this.#hosts.getMany(ready.map(([origin]) => origin));
				const ops: Op[] = [];
				const moved: Array<[string, HostPlace]> = [];
				for (let i = 0; i < ready.length && tokens > 0; i++) {
					const origin = ready[i]![0];
					const host = hosts[i];
					if (!host) continue;
					const room = options.perHost - (this.#claimedPer.get(origin) ?? 0);
					const got = await this.#takeDue(origin, now, Math.min(tokens, host.g > 0 ? 1 : room));
					if (got.length === 0) continue;
					tokens -= got.length;
					this.#claimedPer.set(origin, (this.#claimedPer.get(origin) ?? 0) + got.length);
					for (const entry of got) {
						entries.push(entry);
						this.#leases.set(entry.url, now + options.leaseMs);
						ops.push(this.#del(this.#at, atKey(origin, entry.due, entry.url)), { type: 'put', sublevel: this.#claims, key: entry.url, value: { o: origin, d: entry.due, b: rateBin(entry.rate) } });
					}
					moved.push([origin, host]);
				}
				if (moved.length === 0) break;
				await this.#db.batch(ops as never);
				const reready: Op[] = [];
				for (const [origin, host] of moved) reready.push(...(await this.#reready(origin, host, { ...host, c: now })));
				await this.#db.batch(reready as never);
			}
			this.#slot += entries.length * interval;
			return { now, entries };
		});
	}

	/** Up to `max` unclaimed URLs of `origin` due by `now`, in due order. */
	async #takeDue(origin: string, now: number, max: number): Promise<DueEntry[]> {
		const got: DueEntry[] = [];
		for await (const [key, bin] of this.#at.iterator({ gte: `${origin}${SEP}`, lt: `${origin}${SEP}${pad(now + 1)}`, limit: max })) {
			const due = Number(key.slice(origin.length + 1, origin.length + 16));
			got.push({ url: key.slice(origin.length + 17), origin, due, rate: binRate(bin) });
		}
		return got;
	}

	release(urls: readonly string[]): Promise<void> {
		return this.#serial(() => this.#unclaim(urls, false));
	}

	/** Puts claimed URLs back at the due time they had; `all` also takes claims this process did not make (left by a killed one). */
	async #unclaim(urls: readonly string[], all: boolean): Promise<void> {
		const places = await this.#claims.getMany([...urls]);
		const back: DueEntry[] = [];
		urls.forEach((url, i) => {
			const place = places[i];
			if (!place || (!all && !this.#leases.has(url))) return;
			back.push({ url, origin: place.o, due: place.d, rate: binRate(place.b) });
		});
		await this.#place(back, true);
		// Claims of a killed process were never counted here.
		if (all) for (const entry of back) this.#claimedPer.delete(entry.origin);
	}

	gap(origin: string, ms: number): Promise<void> {
		return this.#serial(async () => {
			const host = await this.#hosts.get(origin);
			if (!host) return void (await this.#hosts.put(origin, { r: -1, g: ms, n: 0 }));
			await this.#db.batch((await this.#reready(origin, host, { ...host, g: ms })) as never);
		});
	}

	mark(source: string, urls: readonly string[], generation: number): Promise<void> {
		return this.#serial(() => this.#db.batch(urls.map((url) => ({ type: 'put', sublevel: this.#sources, key: `${source}${SEP}${url}`, value: generation })) as never));
	}

	sweepOut(source: string, generation: number): Promise<string[]> {
		return this.#serial(async () => {
			const gone: string[] = [];
			for await (const [key, seen] of this.#sources.iterator({ gte: `${source}${SEP}`, lt: `${source}${END}` })) {
				if (seen < generation) gone.push(key.slice(source.length + 1));
			}
			await this.#db.batch(gone.map((url) => this.#del(this.#sources, `${source}${SEP}${url}`)) as never);
			return gone;
		}).then(async (gone) => {
			await this.remove(gone);
			return gone;
		});
	}

	async has(urls: readonly string[]): Promise<boolean[]> {
		return (await this.#urls.getMany([...urls])).map((place) => place !== undefined);
	}

	async rateBins(): Promise<number[]> {
		return [...this.#bins];
	}

	stats(): Promise<QueueStats> {
		return this.#serial(async () => {
			const now = queueNow(this.#clock);
			let size = 0;
			for (const count of this.#bins) size += count;
			let hosts = 0;
			let backlog = 0;
			let next: number | undefined;
			const depths: Array<{ origin: string; depth: number }> = [];
			for await (const [origin, host] of this.#hosts.iterator()) {
				if (host.n <= 0) continue;
				hosts++;
				let depth = 0;
				if (backlog < BACKLOG_COUNTED) for await (const key of this.#at.keys({ gte: `${origin}${SEP}`, lt: `${origin}${SEP}${pad(now + 1)}`, limit: BACKLOG_COUNTED - backlog })) void key, depth++;
				backlog += depth;
				if (depth > 0) depths.push({ origin, depth });
				const first = await this.#firstDue(origin);
				if (first !== undefined) next = Math.min(next ?? Infinity, first);
			}
			depths.sort((a, b) => b.depth - a.depth || (a.origin < b.origin ? -1 : 1));
			return { size, backlog, claimed: this.#leases.size, hosts, next, depths: depths.slice(0, DEPTH_ORIGINS) };
		});
	}

	#del<V>(sublevel: Sub<V>, key: string): Op {
		return { type: 'del', sublevel, key };
	}
}

// Checked where written: abstract-level types a mixed batch only loosely.
type Op = { type: 'put'; sublevel: object; key: string; value: unknown } | { type: 'del'; sublevel: object; key: string };

