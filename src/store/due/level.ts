import { LocalTurns } from './turns.js';
import type { AbstractLevel, AbstractSublevel } from 'abstract-level';
import { StoreError } from '../../errors/index.js';
import { binRate, chooseClock, DEPTH_ORIGINS, RATE_BINS, rateBin, type Claim, type ClaimOptions, type ClaimRef, type DueEntry, type DueQueue, type QueueClock, type QueueStats } from './types.js';
import { queueNow } from './clock.js';
import { OriginHeads, type HeadItem } from './level-heads.js';

// Any abstract-level database: a LevelDB directory (classic-level) or memory-level.
type Db = AbstractLevel<string | Buffer | Uint8Array, string, unknown>;
type Sub<V> = AbstractSublevel<Db, string | Buffer | Uint8Array, string, V>;

/** A URL's place, as `url` keeps it: origin, due time, rate bin, and not claimed ahead before `n` (absent: any time). */
interface Place {
	o: string;
	d: number;
	b: number;
	n?: number;
}

/** An origin's entry: when it may next be asked (`r`, also its key in `ready`), its gap, and its URLs. */
interface HostPlace {
	r: number;
	g: number;
	n: number;
	/** When it was last claimed from. */
	c?: number;
	/** The due time of its first unclaimed URL, -1 for none: kept so that claims and `done` need not read it back (absent in schedules written before it was kept: then it is read). */
	f?: number;
}

/** The backlog is counted up to this many URLs (a count over 100,000 due URLs is "at least 100,000"): on LevelDB, counting is reading every key. */
export const BACKLOG_COUNTED = 100_000;
/** Origins' places kept in memory at most (a write-through cache: one process holds the database). */
const HOSTS_CACHED = 10_000;
/** Keys read past what a claim takes, kept for the next claims of the origin (see OriginHeads). */
const READ_AHEAD = 32;
/** Origins a pull-ahead claim looks at, in the order they are next ready: a bounded read when nothing is due. */
const AHEAD_ORIGINS = 256;

const SEP = '\x00';
const END = '\x01';
/** A time as keys hold it: whole ms, not before 1970. */
const keyTime = (time: number): number => Math.max(0, Math.round(time));
const pad = (time: number): string => keyTime(time).toString().padStart(15, '0');
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
	/** One process holds a LevelDB directory (memory-level: one process by nature). */
	readonly shared = false;
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
	/** Origins' places as last read or written; null for none. */
	#hostCache = new Map<string, HostPlace | null>();
	/** The first `at` keys of origins claimed from. */
	readonly #heads = new OriginHeads();
	/** One operation at a time: each reads what the one before wrote. */
	#chain: Promise<unknown> = Promise.resolve();
	readonly #turns = new LocalTurns();

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
			// A failed write may have left the cache ahead of the database.
			this.#hostCache.clear();
			this.#heads.clear();
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
			const unfirst = new Set<string>();
			urls.forEach((url, i) => {
				const place = places[i];
				if (!place) return;
				ops.push(this.#del(this.#urls, url), this.#atDel(place.o, place.d, url));
				this.#bins[place.b]!--;
				touched.set(place.o, (touched.get(place.o) ?? 0) - 1);
				unfirst.add(place.o);
			});
			await this.#commit(ops, touched, new Map(), unfirst);
		});
	}

	/** Puts entries in place; `ending` also ends their claims (a URL removed while claimed is not put back). */
	async #place(entries: readonly DueEntry[], ending: boolean): Promise<void> {
		const urls = entries.map((entry) => entry.url);
		const places = await this.#urls.getMany(urls);
		const ops: Op[] = [];
		const touched = new Map<string, number>();
		const firsts = new Map<string, number>();
		// Origins that lost an unclaimed URL: their first due time is read back.
		const unfirst = new Set<string>();
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
				// A URL this process claimed has no `at` key (the claim took it out).
				if (!claimed) {
					ops.push(this.#atDel(old.o, old.d, entry.url));
					unfirst.add(old.o);
				} else if (ending) ops.push(this.#atDel(old.o, old.d, entry.url));
				if (old.o !== entry.origin) touched.set(old.o, (touched.get(old.o) ?? 0) - 1);
			}
			if (!old || old.o !== entry.origin) touched.set(entry.origin, (touched.get(entry.origin) ?? 0) + 1);
			this.#bins[bin]!++;
			const place: Place = entry.notBefore === undefined ? { o: entry.origin, d: entry.due, b: bin } : { o: entry.origin, d: entry.due, b: bin, n: entry.notBefore };
			ops.push({ type: 'put', sublevel: this.#urls, key: entry.url, value: place });
			// A claimed URL moved by `put` keeps its claim: it goes back at its new time when done.
			if (claimed && !ending) ops.push({ type: 'put', sublevel: this.#claims, key: entry.url, value: place });
			else {
				ops.push(this.#atPut(entry.origin, entry.due, entry.url, bin));
				firsts.set(entry.origin, Math.min(firsts.get(entry.origin) ?? Infinity, entry.due));
			}
		});
		await this.#commit(ops, touched, firsts, unfirst);
	}

	/**
	 * Writes `ops` with the hosts they touched: counts moved by `touched`, ready times
	 * recomputed. An origin's first due time is the earlier of the one it kept and `firsts`
	 * (the URLs added), and is read back only for the origins in `unfirst` (which lost one).
	 */
	async #commit(ops: Op[], touched: Map<string, number>, firsts: Map<string, number>, unfirst: Set<string>): Promise<void> {
		const origins = [...new Set([...touched.keys(), ...firsts.keys()])];
		if (origins.length > 0) {
			const hosts = await this.#getHosts(origins);
			const unknown = origins.filter((origin, i) => unfirst.has(origin) || (hosts[i] !== undefined && hosts[i]!.f === undefined));
			if (unknown.length > 0) {
				// The batch first, so that those origins' first unclaimed URL can be read back.
				await this.#db.batch(ops as never);
				ops = [];
			}
			const reread = new Set(unknown);
			for (let i = 0; i < origins.length; i++) {
				const origin = origins[i]!;
				const host = hosts[i] ?? { r: 0, g: 0, n: 0, f: -1 };
				const next: HostPlace = { ...host, n: host.n + (touched.get(origin) ?? 0) };
				let first: number | undefined;
				if (reread.has(origin)) first = await this.#firstDue(origin);
				else {
					const kept = host.f !== undefined && host.f >= 0 ? host.f : Infinity;
					const added = firsts.get(origin) ?? Infinity;
					first = Math.min(kept, added) === Infinity ? undefined : keyTime(Math.min(kept, added));
				}
				ops.push(...this.#reready(origin, hosts[i], next, first));
			}
		}
		ops.push({ type: 'put', sublevel: this.#meta, key: 'bins', value: this.#bins });
		await this.#db.batch(ops as never);
	}

	/** Origins' places, from the cache or the database. */
	async #getHosts(origins: readonly string[]): Promise<Array<HostPlace | undefined>> {
		const missing = origins.filter((origin) => !this.#hostCache.has(origin));
		if (missing.length > 0) {
			const read = await this.#hosts.getMany(missing);
			if (this.#hostCache.size + missing.length > HOSTS_CACHED) this.#hostCache.clear();
			missing.forEach((origin, i) => this.#hostCache.set(origin, read[i] ?? null));
		}
		return origins.map((origin) => this.#hostCache.get(origin) ?? undefined);
	}

	/** Operations that move `origin` in `ready` to its next time: the later of its gap and its first unclaimed URL (`first`, undefined for none). */
	#reready(origin: string, old: HostPlace | undefined, next: HostPlace, first: number | undefined): Op[] {
		const ops: Op[] = [];
		if (old && old.n > 0 && old.r >= 0) ops.push(this.#del(this.#ready, readyKey(old.r, origin)));
		if (next.n <= 0 && first === undefined) {
			this.#hostCache.set(origin, null);
			return [...ops, this.#del(this.#hosts, origin)];
		}
		next.f = first ?? -1;
		next.r = first === undefined ? -1 : Math.max(first, (next.c ?? -Infinity) + next.g);
		this.#hostCache.set(origin, next);
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
			let tokens = this.#tokens(options, now);
			const interval = 1 / options.rate;
			const entries: DueEntry[] = [];
			// Rounds: each gives every ready origin its share; an origin without a gap may give more in the next.
			while (tokens > 0) {
				const ready: Array<[string, HostPlace]> = [];
				for await (const origin of this.#ready.values({ lt: pad(now + 1) })) {
					if (options.perHost - (this.#claimedPer.get(origin) ?? 0) > 0) ready.push([origin, undefined as never]);
					if (ready.length >= tokens) break;
				}
				if (ready.length === 0) break;
				const hosts = await this.#getHosts(ready.map(([origin]) => origin));
				const ops: Op[] = [];
				let moved = 0;
				for (let i = 0; i < ready.length && tokens > 0; i++) {
					const origin = ready[i]![0];
					const host = hosts[i];
					if (!host) continue;
					const room = options.perHost - (this.#claimedPer.get(origin) ?? 0);
					const { got, first } = await this.#takeDue(origin, now, Math.min(tokens, host.g > 0 ? 1 : room));
					if (got.length === 0) continue;
					tokens -= got.length;
					this.#claimedPer.set(origin, (this.#claimedPer.get(origin) ?? 0) + got.length);
					for (const entry of got) {
						entries.push(entry);
						this.#leases.set(entry.url, now + options.leaseMs);
						ops.push(this.#atDel(origin, entry.due, entry.url), { type: 'put', sublevel: this.#claims, key: entry.url, value: { o: origin, d: entry.due, b: rateBin(entry.rate) } });
					}
					ops.push(...this.#reready(origin, host, { ...host, c: now }, first));
					moved++;
				}
				if (moved === 0) break;
				await this.#db.batch(ops as never);
			}
			this.#slot! += entries.length * interval;
			return { now, entries };
		});
	}

	/** Pacing: a slot per check, `burst` of them saved up at most; how many have come by `now`. */
	#tokens(options: ClaimOptions, now: number): number {
		const interval = 1 / options.rate;
		this.#slot = Math.max(this.#slot ?? -Infinity, now - options.burst * interval);
		return Math.min(options.max, Math.floor((now - this.#slot) / interval) + 1);
	}

	claimAhead(options: ClaimOptions): Promise<Claim> {
		return this.#serial(async () => {
			const now = queueNow(this.#clock);
			const tokens = this.#tokens(options, now);
			if (tokens <= 0) return { now, entries: [] };
			// Origins not ready now: their first URL is not due yet, or their gap has not passed (then passed over).
			const origins: string[] = [];
			for await (const origin of this.#ready.values({ gte: pad(now + 1), limit: AHEAD_ORIGINS })) origins.push(origin);
			const hosts = await this.#getHosts(origins);
			const offers: Array<{ origin: string; item: HeadItem; place: Place }> = [];
			for (let i = 0; i < origins.length; i++) {
				const origin = origins[i]!;
				const host = hosts[i];
				if (!host || (host.g > 0 && (host.c ?? -Infinity) + host.g > now)) continue;
				const room = Math.min(tokens, host.g > 0 ? 1 : options.perHost - (this.#claimedPer.get(origin) ?? 0));
				if (room <= 0) continue;
				const look = Math.min(room + READ_AHEAD, 100);
				const head = await this.#head(origin, look);
				const items = head.items.slice(0, look);
				const places = await this.#urls.getMany(items.map((item) => item.url));
				let offered = 0;
				for (let k = 0; k < items.length && offered < room; k++) {
					const place = places[k];
					if (!place || (place.n !== undefined && place.n > now)) continue;
					offers.push({ origin, item: items[k]!, place });
					offered++;
				}
			}
			offers.sort((a, b) => a.item.due - b.item.due);
			const entries: DueEntry[] = [];
			const ops: Op[] = [];
			const taken = new Set<string>();
			for (const { origin, item, place } of offers.slice(0, tokens)) {
				entries.push({ url: item.url, origin, due: item.due, rate: binRate(item.bin), notBefore: place.n });
				this.#leases.set(item.url, now + options.leaseMs);
				this.#claimedPer.set(origin, (this.#claimedPer.get(origin) ?? 0) + 1);
				ops.push(this.#atDel(origin, item.due, item.url), { type: 'put', sublevel: this.#claims, key: item.url, value: place });
				taken.add(origin);
			}
			for (const origin of taken) {
				const [host] = await this.#getHosts([origin]);
				const head = this.#heads.get(origin);
				const first = head?.items[0]?.due ?? (head?.last === undefined ? undefined : await this.#firstAfter(origin, head.last));
				ops.push(...this.#reready(origin, host, { ...host!, c: now }, first));
			}
			if (ops.length > 0) await this.#db.batch(ops as never);
			this.#slot! += entries.length / options.rate;
			return { now, entries };
		});
	}

	/** The origin's head, read again when it holds fewer than `count` keys and the origin has more. */
	async #head(origin: string, count: number): Promise<{ items: HeadItem[]; last: string | undefined }> {
		const head = this.#heads.get(origin);
		if (head && (head.last === undefined || head.items.length >= count)) return head;
		return this.#readHead(origin, count + 1);
	}

	/** Reads the origin's first `limit` `at` keys as its head. */
	async #readHead(origin: string, limit: number): Promise<{ items: HeadItem[]; last: string | undefined }> {
		const items: HeadItem[] = [];
		const keys = this.#at.iterator({ gte: `${origin}${SEP}`, lt: `${origin}${END}`, limit });
		try {
			for (const [key, bin] of await keys.nextv(limit)) items.push({ key, due: Number(key.slice(origin.length + 1, origin.length + 16)), url: key.slice(origin.length + 17), bin });
		} finally {
			await keys.close();
		}
		this.#heads.set(origin, items, items.length < limit);
		return this.#heads.get(origin) ?? { items, last: undefined };
	}

	/** The due time of the origin's first `at` key after `key` (undefined for none). */
	async #firstAfter(origin: string, key: string): Promise<number | undefined> {
		for await (const next of this.#at.keys({ gt: key, lt: `${origin}${END}`, limit: 1 })) return Number(next.slice(origin.length + 1, origin.length + 16));
		return undefined;
	}

	async saved(name: string): Promise<unknown> {
		return (this.#meta as unknown as Sub<unknown>).get(`saved${SEP}${name}`);
	}

	save(name: string, value: unknown): Promise<void> {
		return this.#serial(() => (this.#meta as unknown as Sub<unknown>).put(`saved${SEP}${name}`, value));
	}

	/**
	 * Up to `max` unclaimed URLs of `origin` due by `now`, in due order, and the due time
	 * of the first one left (undefined for none): from the origin's head when it holds
	 * enough, else from one read of `max + 1 + READ_AHEAD` keys, the rest kept as its head.
	 */
	async #takeDue(origin: string, now: number, max: number): Promise<{ got: DueEntry[]; first: number | undefined }> {
		let head = this.#heads.get(origin);
		if (!head || (head.last !== undefined && head.items.length < max + 1)) head = await this.#readHead(origin, max + 1 + READ_AHEAD);
		const got: DueEntry[] = [];
		const by = keyTime(now + 1);
		for (const item of head.items) {
			if (got.length >= max || item.due >= by) return { got, first: item.due };
			got.push({ url: item.url, origin, due: item.due, rate: binRate(item.bin) });
		}
		return { got, first: undefined };
	}

	release(entries: readonly ClaimRef[]): Promise<void> {
		const urls = entries.map((entry) => entry.url);
		return this.#serial(() => this.#unclaim(urls, false));
	}

	/** Puts claimed URLs back at the due time they had; `all` also takes claims this process did not make (left by a killed one). */
	async #unclaim(urls: readonly string[], all: boolean): Promise<void> {
		const places = await this.#claims.getMany([...urls]);
		const back: DueEntry[] = [];
		urls.forEach((url, i) => {
			const place = places[i];
			if (!place || (!all && !this.#leases.has(url))) return;
			back.push({ url, origin: place.o, due: place.d, rate: binRate(place.b), notBefore: place.n });
		});
		await this.#place(back, true);
		// Claims of a killed process were never counted here.
		if (all) for (const entry of back) this.#claimedPer.delete(entry.origin);
	}

	turn(origin: string, gapMs: number, holdMs: number, token: string): Promise<number> {
		return this.#turns.turn(origin, gapMs, holdMs, token);
	}

	sent(origin: string, gapMs: number, token: string): Promise<void> {
		return this.#turns.sent(origin, gapMs, token);
	}

	gap(origin: string, ms: number): Promise<void> {
		return this.#serial(async () => {
			const [host] = await this.#getHosts([origin]);
			if (!host) {
				const place: HostPlace = { r: -1, g: ms, n: 0, f: -1 };
				await this.#hosts.put(origin, place);
				return void this.#hostCache.set(origin, place);
			}
			const first = host.f === undefined ? await this.#firstDue(origin) : host.f >= 0 ? host.f : undefined;
			await this.#db.batch(this.#reready(origin, host, { ...host, g: ms }, first) as never);
		});
	}

	mark(source: string, urls: readonly string[], generation: number): Promise<void> {
		return this.#serial(() => this.#db.batch(urls.map((url) => ({ type: 'put', sublevel: this.#sources, key: `${source}${SEP}${url}`, value: generation })) as never));
	}

	sweepOut(source: string, generation: number): Promise<string[]> {
		return this.#serial(async () => {
			const stale: string[] = [];
			for await (const [key, seen] of this.#sources.iterator({ gte: `${source}${SEP}`, lt: `${source}${END}` })) {
				if (seen < generation) stale.push(key.slice(source.length + 1));
			}
			await this.#db.batch(stale.map((url) => this.#del(this.#sources, `${source}${SEP}${url}`)) as never);
			// A URL another input still lists stays: it leaves only once none lists it.
			let gone = stale;
			for (const other of await this.#sourceNames()) {
				if (other === source || gone.length === 0) continue;
				const listed = await this.#sources.getMany(gone.map((url) => `${other}${SEP}${url}`));
				gone = gone.filter((_, i) => listed[i] === undefined);
			}
			return gone;
		}).then(async (gone) => {
			await this.remove(gone);
			return gone;
		});
	}

	/** The sources with URLs marked: one key read per source, each skipping past the source's own keys. */
	async #sourceNames(): Promise<string[]> {
		const names: string[] = [];
		let from = '';
		for (;;) {
			let name: string | undefined;
			for await (const key of this.#sources.keys({ gte: from, limit: 1 })) name = key.slice(0, key.indexOf(SEP));
			if (name === undefined) return names;
			names.push(name);
			from = `${name}${END}`;
		}
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
				const first = host.f === undefined ? await this.#firstDue(origin) : host.f >= 0 ? host.f : undefined;
				if (first === undefined) continue;
				next = Math.min(next ?? Infinity, first);
				// An origin whose first URL is not due yet has none due.
				if (backlog < BACKLOG_COUNTED && first < keyTime(now + 1)) {
					const depth = await this.#count(`${origin}${SEP}`, `${origin}${SEP}${pad(now + 1)}`, BACKLOG_COUNTED - backlog);
					backlog += depth;
					if (depth > 0) depths.push({ origin, depth });
				}
			}
			depths.sort((a, b) => b.depth - a.depth || (a.origin < b.origin ? -1 : 1));
			return { size, backlog, claimed: this.#leases.size, hosts, next, depths: depths.slice(0, DEPTH_ORIGINS) };
		});
	}

	/** Keys of `at` in [gte, lt), up to `limit`: read a thousand at a time, not one promise each. */
	async #count(gte: string, lt: string, limit: number): Promise<number> {
		const keys = this.#at.keys({ gte, lt, limit });
		let count = 0;
		try {
			for (let got = await keys.nextv(1000); got.length > 0; got = await keys.nextv(1000)) count += got.length;
		} finally {
			await keys.close();
		}
		return count;
	}

	/** Writes a URL's `at` key, and keeps its origin's head up to date. */
	#atPut(origin: string, due: number, url: string, bin: number): Op {
		const key = atKey(origin, due, url);
		this.#heads.put(origin, { key, due: keyTime(due), url, bin });
		return { type: 'put', sublevel: this.#at, key, value: bin };
	}

	#atDel(origin: string, due: number, url: string): Op {
		const key = atKey(origin, due, url);
		this.#heads.del(origin, key);
		return this.#del(this.#at, key);
	}

	#del<V>(sublevel: Sub<V>, key: string): Op {
		return { type: 'del', sublevel, key };
	}
}

// Checked where written: abstract-level types a mixed batch only loosely.
type Op = { type: 'put'; sublevel: object; key: string; value: unknown } | { type: 'del'; sublevel: object; key: string };

