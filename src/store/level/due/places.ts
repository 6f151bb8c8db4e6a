import { rateBin, type DueEntry } from '../../model/due.js';
import { OriginKeys, type OriginHeads } from './heads.js';
import type { Leases } from './claims.js';
import type { RateBins } from './bins.js';
import { ReadyHead } from './ready.js';
import { atKey, del, keyTime, put, readyKey, type Db, type HostPlace, type Op, type Place, type Sub } from './keys.js';

/** Origins' places kept in memory at most (a write-through cache: one process holds the database). */
const HOSTS_CACHED = 10_000;

/** The sublevels where URLs and origins are placed. */
export interface Places {
	at: Sub<number>;
	ready: Sub<string>;
	urls: Sub<Place>;
	hosts: Sub<HostPlace>;
}

/**
 * Where each URL and origin is in a LevelDB schedule, and the writes that move them: the
 * `at` keys, each URL's place, each origin's place and its key in `ready`. Claims are not
 * here (level-claims.ts): they only make the reads of an origin's URLs skip some.
 *
 * @example
 * const places = new LevelPlaces(db, subs, { heads, leases, bins, now: () => Date.now() });
 * await places.place([{ url, origin, due, rate }], false);
 */
export class LevelPlaces {
	readonly at: Sub<number>;
	readonly urls: Sub<Place>;
	/** The origins in `ready` order, its first keys kept in memory. */
	readonly ready: ReadyHead;
	/** Reads of an origin's URLs in due order, claimed ones passed over. */
	readonly keys: OriginKeys;
	readonly #origins: Sub<HostPlace>;
	readonly #readySub: Sub<string>;
	readonly #db: Db;
	readonly #heads: OriginHeads;
	readonly #leases: Leases;
	readonly #bins: RateBins;
	/** The schedule's time now. */
	readonly #now: () => number;
	/** Origins' places as last read or written; null for none. */
	#hostCache = new Map<string, HostPlace | null>();

	constructor(db: Db, subs: Places, kept: { heads: OriginHeads; leases: Leases; bins: RateBins; now: () => number }) {
		this.#db = db;
		this.at = subs.at;
		this.#readySub = subs.ready;
		this.ready = new ReadyHead(subs.ready);
		this.urls = subs.urls;
		this.#origins = subs.hosts;
		this.#heads = kept.heads;
		this.#leases = kept.leases;
		this.#bins = kept.bins;
		this.#now = kept.now;
		this.keys = new OriginKeys(subs.at, kept.heads, kept.leases);
	}

	/** After a failed write: what is cached may be ahead of the database. */
	forget(): void {
		this.#hostCache.clear();
		this.ready.forget();
	}

	/**
	 * Puts entries in place, with `extra` in the same write. With `ending`, ends their claims
	 * first: an entry whose claim has another token is left alone (the claim it was checked
	 * under ended, and the URL may be another's now), and a URL removed while claimed is not
	 * put back. A claimed URL moved without `ending` keeps its claim.
	 */
	async place(entries: readonly DueEntry[], ending: boolean, extra: Op[] = []): Promise<void> {
		const seen = new Set<string>();
		// A claim knows its URL's place: only the others are read.
		const known = new Map<string, Place | undefined>();
		const kept = entries.filter((entry) => {
			if (seen.has(entry.url)) return false;
			seen.add(entry.url);
			if (!ending) return true;
			const lease = this.#leases.end(entry);
			if (lease) known.set(entry.url, lease.gone ? undefined : { o: lease.origin, d: lease.due, b: lease.bin });
			return lease !== undefined || entry.token === undefined;
		});
		const unknown = kept.filter((entry) => !known.has(entry.url)).map((entry) => entry.url);
		const read = unknown.length === 0 ? [] : await this.urls.getMany(unknown);
		unknown.forEach((url, i) => known.set(url, read[i]));
		const places = kept.map((entry) => known.get(entry.url));
		const ops: Op[] = [];
		const touched = new Map<string, number>();
		const firsts = new Map<string, number>();
		const lost = new Map<string, number>();
		kept.forEach((entry, i) => {
			const old = places[i];
			if (ending && !old) return;
			const bin = rateBin(entry.rate);
			if (old) {
				this.#bins.add(old.b, -1);
				ops.push(this.#atDel(old.o, old.d, entry.url));
				lost.set(old.o, Math.min(lost.get(old.o) ?? Infinity, keyTime(old.d)));
				if (old.o !== entry.origin) touched.set(old.o, (touched.get(old.o) ?? 0) - 1);
			}
			if (!old || old.o !== entry.origin) touched.set(entry.origin, (touched.get(entry.origin) ?? 0) + 1);
			this.#bins.add(bin, 1);
			const place: Place =
				entry.notBefore === undefined ? { o: entry.origin, d: entry.due, b: bin } : { o: entry.origin, d: entry.due, b: bin, n: entry.notBefore };
			ops.push(put(this.urls, entry.url, place), this.#atPut(entry.origin, entry.due, entry.url, bin));
			firsts.set(entry.origin, Math.min(firsts.get(entry.origin) ?? Infinity, keyTime(entry.due)));
			this.#leases.moved(entry.url, entry.origin, keyTime(entry.due), bin);
		});
		if (ops.length > 0) ops.push(...this.#bins.changed());
		await this.#commit([...extra, ...ops], touched, firsts, lost);
	}

	/** Takes URLs out of the schedule (a claimed one too: its claim then ends with nothing put back). */
	async remove(urls: readonly string[]): Promise<void> {
		const places = await this.urls.getMany([...urls]);
		const ops: Op[] = [];
		const touched = new Map<string, number>();
		const lost = new Map<string, number>();
		urls.forEach((url, i) => {
			const place = places[i];
			if (!place) return;
			ops.push(del(this.urls, url), this.#atDel(place.o, place.d, url));
			this.#leases.removed(url);
			this.#bins.add(place.b, -1);
			touched.set(place.o, (touched.get(place.o) ?? 0) - 1);
			lost.set(place.o, Math.min(lost.get(place.o) ?? Infinity, keyTime(place.d)));
		});
		if (ops.length > 0) ops.push(...this.#bins.changed());
		await this.#commit(ops, touched, new Map(), lost);
	}

	/**
	 * Writes `ops` with the origins they touched: counts moved by `touched`, first due times
	 * and ready times recomputed. An origin's first key is the earlier of the one it kept
	 * and `firsts` (the keys added), unless it lost a key at or before it (`lost`: the
	 * earliest due time it lost); then it is its head's first, or read back after the write.
	 */
	async #commit(ops: Op[], touched: Map<string, number>, firsts: Map<string, number>, lost: Map<string, number>): Promise<void> {
		const origins = [...new Set([...touched.keys(), ...firsts.keys(), ...lost.keys()])];
		const hosts = await this.hosts(origins);
		const known = new Map<string, number | undefined>();
		const unknown: string[] = [];
		origins.forEach((origin, i) => {
			const host = hosts[i];
			const added = firsts.get(origin) ?? Infinity;
			const found = (first: number): void => void known.set(origin, first === Infinity ? undefined : first);
			// A new origin's first key is the first it is given.
			if (!host) return found(added);
			const kept = host.f === undefined ? undefined : host.f >= 0 ? host.f : Infinity;
			if (kept !== undefined && !(lost.get(origin)! <= kept)) return found(Math.min(kept, added));
			const head = this.#heads.get(origin);
			if (head && (head.items.length > 0 || head.last === undefined)) return found(Math.min(head.items[0]?.due ?? Infinity, added));
			unknown.push(origin);
		});
		if (unknown.length > 0) {
			// The batch first, so that those origins' first keys can be read back.
			await this.#db.batch(ops as never);
			ops = [];
			for (const origin of unknown) known.set(origin, await this.keys.first(origin));
		}
		origins.forEach((origin, i) => {
			if (!known.has(origin)) return;
			const host = hosts[i];
			const next: HostPlace = { ...(host ?? { r: 0, g: 0, n: 0 }), n: (host?.n ?? 0) + (touched.get(origin) ?? 0) };
			ops.push(...this.#reready(origin, host, next, known.get(origin)));
		});
		if (ops.length > 0) await this.#db.batch(ops as never);
	}

	/** Origins' places, from the cache or the database. */
	async hosts(origins: readonly string[]): Promise<Array<HostPlace | undefined>> {
		const missing = origins.filter((origin) => !this.#hostCache.has(origin));
		if (missing.length > 0) {
			const read = await this.#origins.getMany(missing);
			if (this.#hostCache.size + missing.length > HOSTS_CACHED) this.#hostCache.clear();
			missing.forEach((origin, i) => this.#hostCache.set(origin, read[i] ?? null));
		}
		return origins.map((origin) => this.#hostCache.get(origin) ?? undefined);
	}

	/**
	 * Operations that move `origin` in `ready` to its next time: the later of its gap and its first key (`first`, undefined for none); none when nothing moved.
	 */
	#reready(origin: string, old: HostPlace | undefined, next: HostPlace, first: number | undefined): Op[] {
		const ops: Op[] = [];
		if (next.n <= 0 && first === undefined) {
			if (old && old.n > 0 && old.r >= 0) ops.push(this.#readyDel(readyKey(old.r, origin)));
			this.#hostCache.set(origin, null);
			return old ? [...ops, del(this.#origins, origin)] : ops;
		}
		next.f = first ?? -1;
		next.r = first === undefined ? -1 : Math.max(first, (next.c ?? -Infinity) + next.g);
		if (old && old.n === next.n && old.g === next.g && old.c === next.c) {
			if (old.r === next.r && old.f === next.f) return ops;
			// Ready now before and after, and no earlier than it says: left as it is, since an origin's time may be early, never late.
			// An origin in a backlog then writes nothing per URL done, and `ready` does not fill with the deletions of its times.
			if (old.r >= 0 && old.f! >= 0 && old.r <= next.r && old.f! <= next.f && next.r <= this.#now()) return ops;
		}
		this.#hostCache.set(origin, next);
		ops.push(put(this.#origins, origin, next));
		const was = old && old.n > 0 && old.r >= 0 ? readyKey(old.r, origin) : undefined;
		const now = next.r >= 0 ? readyKey(next.r, origin) : undefined;
		if (was !== now) {
			if (was !== undefined) ops.push(this.#readyDel(was));
			if (now !== undefined) ops.push(this.#readyPut(now, origin));
		}
		return ops;
	}

	/** Every origin's place, in key order. */
	hostEntries(): AsyncIterable<[string, HostPlace]> {
		return this.#origins.iterator();
	}

	/** Origins with a gap were claimed from at `now`: their next time is a gap on. */
	async claimedAt(origins: readonly string[], now: number): Promise<void> {
		if (origins.length === 0) return;
		const hosts = await this.hosts(origins);
		const ops: Op[] = [];
		for (let i = 0; i < origins.length; i++) {
			const host = hosts[i];
			if (host)
				ops.push(
					...this.#reready(
						origins[i]!,
						host,
						{ ...host, c: now },
						host.f === undefined ? await this.keys.first(origins[i]!) : host.f >= 0 ? host.f : undefined,
					),
				);
		}
		await this.#db.batch(ops as never);
	}

	/** Sets an origin's least time between claims. */
	async gap(origin: string, ms: number): Promise<void> {
		const [host] = await this.hosts([origin]);
		if (!host) {
			const place: HostPlace = { r: -1, g: ms, n: 0, f: -1 };
			await this.#db.batch([put(this.#origins, origin, place)] as never);
			return void this.#hostCache.set(origin, place);
		}
		const first = host.f === undefined ? await this.keys.first(origin) : host.f >= 0 ? host.f : undefined;
		await this.#db.batch(this.#reready(origin, host, { ...host, g: ms }, first) as never);
	}

	/** Writes a URL's `at` key, and keeps its origin's head up to date. */
	#atPut(origin: string, due: number, url: string, bin: number): Op {
		const key = atKey(origin, due, url);
		this.#heads.put(origin, { key, due: keyTime(due), url, bin });
		return put(this.at, key, bin);
	}

	/** Writes an origin's `ready` key, and keeps the keys held in memory up to date. */
	#readyPut(key: string, origin: string): Op {
		this.ready.put(key);
		return put(this.#readySub, key, origin);
	}

	#readyDel(key: string): Op {
		this.ready.del(key);
		return del(this.#readySub, key);
	}

	#atDel(origin: string, due: number, url: string): Op {
		const key = atKey(origin, due, url);
		this.#heads.del(origin, key);
		return del(this.at, key);
	}
}
