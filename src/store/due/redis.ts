import type { RedisLink } from '../redis-link.js';
import { BACKLOG_COUNTED } from './level.js';
import { CLAIM, CLAIM_AHEAD, GAP, NOW_SCRIPT, PLACE, RELEASE, REMOVE, SENT, STATS, SWEEP, TURN } from './redis-scripts.js';
import { binRate, chooseClock, DEPTH_ORIGINS, RATE_BINS, rateBin, type Claim, type ClaimOptions, type ClaimRef, type DueEntry, type DueQueue, type QueueClock, type QueueStats } from './types.js';

/** URLs per script call: a long batch is several calls, so that Redis serves others between them. */
const CHUNK = 1_000;

/**
 * The watch schedule on Redis, shared by every process that opens the same store. Keys,
 * all under the Redis Cluster hash tag `P{due}` (so that each script runs on one node:
 * on a Cluster, one node holds the whole schedule):
 *
 *   P{due}:at:ORIGIN   zset   the origin's unclaimed URLs by due time
 *   P{due}:ready       zset   origins with unclaimed URLs, by when each may next be asked:
 *                             the later of its first due time and its last claim + its gap
 *   P{due}:first       zset   the same origins by their first unclaimed due time (for stats)
 *   P{due}:place       hash   URL → `bin|due|origin`, every URL in the schedule
 *   P{due}:count       hash   origin → how many URLs it has in the schedule
 *   P{due}:host:ORIGIN hash   g: its gap (ms), c: when last claimed from, k: claims held;
 *                             t, u: who holds its turn to send and until when, n: when
 *                             the next send may go (wall ms; DueQueue.turn)
 *   P{due}:lease       zset   claimed URLs by when their lease runs out
 *   P{due}:held        hash   claimed URL → the origin it was claimed from
 *   P{due}:bins        hash   rate bin → URLs (the rate histogram)
 *   P{due}:src:SOURCE  hash   URL → the last reading of SOURCE that listed it
 *   P{due}:srcs        set    the SOURCEs marked (a URL one of them still lists is not swept out)
 *   P{due}:slot        string the pacing slot: the schedule time the next check's turn comes
 *   P{due}:nb          hash   URL → not claimed ahead of its due time before this (pull-ahead)
 *   P{due}:saved:NAME  string a JSON value kept with the schedule (the watch's threshold)
 *
 * Claims run as one script on Redis's clock (TIME, turned into the schedule's with the
 * queue's QueueClock), so the processes' own clocks do not matter and `perHost` and
 * `rate` hold over all of them. Unlike the LevelDB schedule, opening the queue does not
 * take back claims: another live process may hold them. A killed process's claims come
 * back when their lease runs out.
 *
 * @example
 * const queue = await RedisDueQueue.open(link, 'revisit:', { at0: Date.now(), wall0: Date.now(), scale: 1 });
 */
export class RedisDueQueue implements DueQueue {
	readonly shared = true;
	readonly #link: RedisLink;
	readonly #base: string;
	#clock: string[];

	private constructor(link: RedisLink, prefix: string, clock: QueueClock) {
		this.#link = link;
		this.#base = `${prefix}{due}`;
		this.#clock = [clock.at0, clock.wall0, clock.scale].map(String);
	}

	/** The schedule under `prefix` on `link`; nothing is read until it is used. */
	static async open(link: RedisLink, prefix: string, clock: QueueClock): Promise<DueQueue> {
		return new RedisDueQueue(link, prefix, clock);
	}

	#run<T>(script: Parameters<RedisLink['eval']>[0], args: readonly string[]): Promise<T> {
		return this.#link.eval<T>(script, [this.#base], args);
	}

	async adoptClock(clock: QueueClock, reset: boolean): Promise<QueueClock> {
		const key = `${this.#base}:clock`;
		const proposed = JSON.stringify(clock);
		// SET NX: of processes starting together, the first one's clock is everyone's.
		if (reset) await this.#link.write([['SET', key, proposed]]);
		else await this.#link.write([['SET', key, proposed, 'NX']]);
		const stored = await this.#link.read<string | null>(['GET', key]);
		const chosen = chooseClock(stored ? (JSON.parse(stored) as QueueClock) : undefined, clock, false);
		this.#clock = [chosen.at0, chosen.wall0, chosen.scale].map(String);
		return chosen;
	}

	async now(): Promise<number> {
		return Number(await this.#run<string>(NOW_SCRIPT, this.#clock));
	}

	put(entries: readonly DueEntry[]): Promise<void> {
		return this.#place(entries, '0');
	}

	done(entries: readonly DueEntry[]): Promise<void> {
		return this.#place(entries, '1');
	}

	async #place(entries: readonly DueEntry[], ending: '0' | '1'): Promise<void> {
		// The first of a URL's entries counts, as on LevelDB.
		const seen = new Set<string>();
		const args = entries.filter((entry) => !seen.has(entry.url) && seen.add(entry.url)).flatMap((entry) => [entry.url, entry.origin, String(entry.due), String(rateBin(entry.rate)), entry.notBefore === undefined ? '' : String(entry.notBefore)]);
		for (let i = 0; i < args.length; i += CHUNK * 5) await this.#run(PLACE, [ending, ...args.slice(i, i + CHUNK * 5)]);
	}

	async remove(urls: readonly string[]): Promise<void> {
		for (let i = 0; i < urls.length; i += CHUNK) await this.#run(REMOVE, urls.slice(i, i + CHUNK));
	}

	async release(entries: readonly ClaimRef[]): Promise<void> {
		const urls = entries.map((entry) => entry.url);
		for (let i = 0; i < urls.length; i += CHUNK) await this.#run(RELEASE, urls.slice(i, i + CHUNK));
	}

	claim(options: ClaimOptions): Promise<Claim> {
		return this.#claimWith(CLAIM, options);
	}

	claimAhead(options: ClaimOptions): Promise<Claim> {
		return this.#claimWith(CLAIM_AHEAD, options);
	}

	async #claimWith(script: typeof CLAIM, options: ClaimOptions): Promise<Claim> {
		const { max, perHost, leaseMs, rate, burst } = options;
		const reply = await this.#run<string[]>(script, [...this.#clock, ...[max, perHost, leaseMs, rate, Math.max(1, burst)].map(String)]);
		const entries: DueEntry[] = [];
		for (let i = 1; i < reply.length; i += 2) {
			const place = reply[i + 1]!;
			const [bin, due] = place.split('|', 2) as [string, string];
			entries.push({ url: reply[i]!, origin: place.slice(bin.length + due.length + 2), due: Number(due), rate: binRate(Number(bin)) });
		}
		return { now: Number(reply[0]), entries };
	}

	async turn(origin: string, gapMs: number, holdMs: number, token: string): Promise<number> {
		return Number(await this.#run<number>(TURN, [origin, String(Math.ceil(gapMs)), String(Math.ceil(holdMs)), token]));
	}

	async sent(origin: string, gapMs: number, token: string): Promise<void> {
		await this.#run(SENT, [origin, String(Math.ceil(gapMs)), token]);
	}

	async saved(name: string): Promise<unknown> {
		const text = await this.#link.read<string | null>(['GET', `${this.#base}:saved:${name}`]);
		return text === null ? undefined : (JSON.parse(text) as unknown);
	}

	async save(name: string, value: unknown): Promise<void> {
		await this.#link.write([['SET', `${this.#base}:saved:${name}`, JSON.stringify(value)]]);
	}

	async gap(origin: string, ms: number): Promise<void> {
		await this.#run(GAP, [origin, String(ms)]);
	}

	async mark(source: string, urls: readonly string[], generation: number): Promise<void> {
		const key = `${this.#base}:src:${source}`;
		// The sources' names too: a sweep of one keeps the URLs the others list.
		if (urls.length > 0) await this.#link.write([['SADD', `${this.#base}:srcs`, source]]);
		for (let i = 0; i < urls.length; i += CHUNK) await this.#link.write([['HSET', key, ...urls.slice(i, i + CHUNK).flatMap((url) => [url, String(generation)])]]);
	}

	async sweepOut(source: string, generation: number): Promise<string[]> {
		const key = `${this.#base}:src:${source}`;
		const gone = new Set<string>();
		// HSCAN may give a field twice, and deleting while scanning is allowed: the script checks each one again.
		let cursor = '0';
		do {
			const [next, flat] = await this.#link.read<[string, string[]]>(['HSCAN', key, cursor, 'COUNT', String(CHUNK)]);
			cursor = next;
			const stale: string[] = [];
			for (let i = 0; i < flat.length; i += 2) if (Number(flat[i + 1]) < generation && !gone.has(flat[i]!)) stale.push(flat[i]!);
			if (stale.length > 0) for (const url of await this.#run<string[]>(SWEEP, [source, String(generation), ...stale])) gone.add(url);
		} while (cursor !== '0');
		return [...gone];
	}

	async has(urls: readonly string[]): Promise<boolean[]> {
		if (urls.length === 0) return [];
		return (await this.#link.read<Array<string | null>>(['HMGET', `${this.#base}:place`, ...urls])).map((place) => place !== null);
	}

	async rateBins(): Promise<number[]> {
		const bins = new Array<number>(RATE_BINS).fill(0);
		const flat = await this.#link.read<string[]>(['HGETALL', `${this.#base}:bins`]);
		for (let i = 0; i < flat.length; i += 2) bins[Number(flat[i])] = Number(flat[i + 1]);
		return bins;
	}

	async stats(): Promise<QueueStats> {
		const [size, backlog, claimed, hosts, next, ...flat] = await this.#run<[number, number, number, number, string, ...Array<string | number>]>(STATS, [...this.#clock, String(BACKLOG_COUNTED), String(DEPTH_ORIGINS)]);
		const depths: Array<{ origin: string; depth: number }> = [];
		for (let i = 0; i + 1 < flat.length; i += 2) depths.push({ origin: String(flat[i]), depth: Number(flat[i + 1]) });
		return { size, backlog, claimed, hosts, next: next === '' ? undefined : Number(next), depths };
	}
}
