import type { RedisLink } from '../link.js';
import { queueNow } from '../../due/clock.js';
import { eachShard, inChunks } from './batches.js';
import { CLAIM, CLAIM_AHEAD } from './claim-scripts.js';
import { claimShards, parseToken, readClaim } from './claims.js';
import { dueBase, dueKey } from './keys.js';
import { RedisListings } from './listings.js';
import { ShardRounds } from './rounds.js';
import { ANSWERED, GAP, NOW_SCRIPT, PLACE, RELEASE, REMOVE, STATS } from './scripts.js';
import { shardBases, shardCount, shardOf, shardsOfUrl } from './shards.js';
import { addBins, addStats, type ShardStats } from './stats.js';
import { SENT, TURN } from './turn-scripts.js';
import {
	BACKLOG_COUNTED,
	chooseClock,
	DEPTH_ORIGINS,
	rateBin,
	type Claim,
	type ClaimOptions,
	type ClaimRef,
	type DueEntry,
	type DueQueue,
	type QueueClock,
	type QueueStats,
} from '../../model/due.js';

/**
 * The watch schedule on Redis, shared by every process that opens the same store.
 *
 * It is cut by origin into shards (store/redis/due/shards.ts), each under its own Redis
 * Cluster hash tag: one, `P{due}`, on one Redis server; 16 on a Cluster, spread over its
 * nodes (redis-keys.ts has what each shard holds, and what `P{due}` holds besides).
 *
 * A claim round is one script on one shard, so on one node, on Redis's clock (TIME,
 * turned into the schedule's with the queue's QueueClock): the processes' own clocks do
 * not matter, and `perHost` and an origin's gap hold over all of them. `claim` goes round
 * the shards (ShardRounds) until it has `max` URLs or has asked each one with something to
 * give. The rate is paced per shard, each at its share of `--rate` (its share of the
 * URLs): a fleet-wide pacing key would put a command of every claim round on one node.
 * The shares add up to the rate, so the fleet never goes over it; a shard that cannot
 * spend its share (nothing left to check, its origins at `perHost`) leaves it unspent.
 * Each claim carries a token (redis-claims.ts): a `done` or `release` under a token that no
 * longer holds the claim does nothing. Opening the queue does not take back claims:
 * another live process may hold them. A killed process's claims come back when their
 * lease runs out.
 *
 * @example
 * const queue = await RedisDueQueue.open(link, 'revisit:', { at0: Date.now(), wall0: Date.now(), scale: 1 });
 */
export class RedisDueQueue implements DueQueue {
	readonly shared = true;
	readonly #link: RedisLink;
	/** `P{due}`: the clock, listings and saved values. */
	readonly #base: string;
	/** Each shard's base key. */
	readonly #shards: string[];
	readonly #rounds: ShardRounds;
	readonly #listings: RedisListings;
	#clock: QueueClock;
	/** Redis's schedule time less ours, at the last claim reply: a claim that asks no shard tells its time without a round trip. */
	#skew: number | undefined;

	private constructor(link: RedisLink, prefix: string, shards: number, clock: QueueClock) {
		this.#link = link;
		this.#base = dueBase(prefix);
		this.#shards = shardBases(prefix, shards);
		this.#clock = clock;
		this.#rounds = new ShardRounds(shards, (ms) => ms / this.#clock.scale);
		this.#listings = new RedisListings(link, this.#base);
	}

	/**
	 * The schedule under `prefix` on `link`. On a Cluster, the first process to open a new
	 * schedule sets its shard count (CLUSTER_SHARDS; one for a schedule from before shards).
	 */
	static async open(link: RedisLink, prefix: string, clock: QueueClock): Promise<DueQueue> {
		return new RedisDueQueue(link, prefix, link.cluster ? await shardCount(link, dueBase(prefix)) : 1, clock);
	}

	#run<T>(script: Parameters<RedisLink['eval']>[0], shard: number, args: readonly string[]): Promise<T> {
		return this.#link.eval<T>(script, [this.#shards[shard]!], args);
	}

	/** The clock as the scripts take it: at0, wall0, scale. */
	#clockArgs(): string[] {
		return [this.#clock.at0, this.#clock.wall0, this.#clock.scale].map(String);
	}

	async adoptClock(clock: QueueClock, reset: boolean): Promise<QueueClock> {
		const key = dueKey(this.#base, 'clock');
		const proposed = JSON.stringify(clock);
		// SET NX: of processes starting together, the first one's clock is everyone's.
		if (reset) await this.#link.write([['SET', key, proposed]]);
		else await this.#link.write([['SET', key, proposed, 'NX']]);
		const stored = await this.#link.read<string | null>(['GET', key]);
		this.#clock = chooseClock(stored ? (JSON.parse(stored) as QueueClock) : undefined, clock, false);
		this.#skew = undefined;
		return this.#clock;
	}

	async now(): Promise<number> {
		return Number(await this.#link.eval<string>(NOW_SCRIPT, [this.#base], this.#clockArgs()));
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
		const first = entries.filter((entry) => !seen.has(entry.url) && seen.add(entry.url));
		const count = this.#shards.length;
		await eachShard(
			first,
			(entry) => [shardOf(entry.origin, count)],
			async (shard, group) => {
				const args = group.flatMap((entry) => [
					entry.url,
					entry.origin,
					String(entry.due),
					String(rateBin(entry.rate)),
					entry.notBefore === undefined ? '' : String(entry.notBefore),
					(ending === '1' && parseToken(entry.token, count)?.seq) || '',
				]);
				await inChunks(args, 6, (chunk) => this.#run(PLACE, shard, [ending, ...chunk]));
				this.#rounds.touched(shard);
			},
		);
	}

	async remove(urls: readonly string[]): Promise<void> {
		await eachShard(
			urls,
			(url) => shardsOfUrl(url, this.#shards.length),
			(shard, group) => inChunks(group, 1, (chunk) => this.#run(REMOVE, shard, chunk)),
		);
	}

	release(entries: readonly ClaimRef[]): Promise<void> {
		return this.#byToken(RELEASE, entries);
	}

	answered(entries: readonly ClaimRef[]): Promise<void> {
		return this.#byToken(ANSWERED, entries);
	}

	/** Runs `script` on each shard for the claims it holds: a token names its shard; a URL without one, every shard it may be in. */
	async #byToken(script: typeof RELEASE, entries: readonly ClaimRef[]): Promise<void> {
		const count = this.#shards.length;
		await eachShard(
			entries,
			(entry) => claimShards(entry, count),
			async (shard, group) => {
				const args = group.flatMap((entry) => [entry.url, parseToken(entry.token, count)?.seq ?? '']);
				await inChunks(args, 2, (chunk) => this.#run(script, shard, chunk));
				this.#rounds.touched(shard);
			},
		);
	}

	claim(options: ClaimOptions): Promise<Claim> {
		return this.#claimRounds(CLAIM, options, false);
	}

	claimAhead(options: ClaimOptions): Promise<Claim> {
		return this.#claimRounds(CLAIM_AHEAD, options, true);
	}

	/** Claim rounds, one shard at a time, until `max` URLs are claimed or every shard that may have some was asked. */
	async #claimRounds(script: typeof CLAIM, options: ClaimOptions, ahead: boolean): Promise<Claim> {
		const { max, perHost, leaseMs, rate, burst } = options;
		if (this.#rounds.stale) this.#rounds.sized(await Promise.all(this.#shards.map((base) => this.#link.read<number>(['HLEN', dueKey(base, 'place')]))));
		const entries: DueEntry[] = [];
		let now: number | undefined;
		for (const shard of this.#rounds.order(ahead)) {
			if (entries.length >= max) break;
			const share = this.#rounds.share(shard);
			const reply = await this.#run<string[]>(script, shard, [
				...this.#clockArgs(),
				...[max - entries.length, perHost, leaseMs, rate * share, Math.max(1, burst * share)].map(String),
			]);
			const round = readClaim(shard, reply);
			now ??= round.hint.now;
			this.#skew = now - queueNow(this.#clock);
			this.#rounds.heard(shard, round.hint);
			entries.push(...round.entries);
		}
		return { now: now ?? (this.#skew === undefined ? await this.now() : queueNow(this.#clock) + this.#skew), entries };
	}

	async turn(origin: string, gapMs: number, holdMs: number, token: string): Promise<number> {
		return Number(await this.#run<number>(TURN, shardOf(origin, this.#shards.length), [origin, String(Math.ceil(gapMs)), String(Math.ceil(holdMs)), token]));
	}

	async sent(origin: string, gapMs: number, token: string): Promise<void> {
		await this.#run(SENT, shardOf(origin, this.#shards.length), [origin, String(Math.ceil(gapMs)), token]);
	}

	async saved(name: string): Promise<unknown> {
		const text = await this.#link.read<string | null>(['GET', dueKey(this.#base, 'saved', name)]);
		return text === null ? undefined : (JSON.parse(text) as unknown);
	}

	async save(name: string, value: unknown): Promise<void> {
		await this.#link.write([['SET', dueKey(this.#base, 'saved', name), JSON.stringify(value)]]);
	}

	async gap(origin: string, ms: number): Promise<void> {
		const shard = shardOf(origin, this.#shards.length);
		await this.#run(GAP, shard, [origin, String(ms)]);
		this.#rounds.touched(shard);
	}

	mark(source: string, urls: readonly string[], generation: number): Promise<void> {
		return this.#listings.mark(source, urls, generation);
	}

	sweepOut(source: string, generation: number): Promise<string[]> {
		return this.#listings.sweep(source, generation, (urls) => this.remove(urls));
	}

	async has(urls: readonly string[]): Promise<boolean[]> {
		if (urls.length === 0) return [];
		const found = new Set<string>();
		await eachShard(
			urls,
			(url) => shardsOfUrl(url, this.#shards.length),
			async (shard, group) => {
				const places = await this.#link.read<Array<string | null>>(['HMGET', dueKey(this.#shards[shard]!, 'place'), ...group]);
				places.forEach((place, i) => place !== null && found.add(group[i]!));
			},
		);
		return urls.map((url) => found.has(url));
	}

	async rateBins(): Promise<number[]> {
		return addBins(await Promise.all(this.#shards.map((base) => this.#link.read<string[]>(['HGETALL', dueKey(base, 'bins')]))));
	}

	async stats(): Promise<QueueStats> {
		return addStats(
			await Promise.all(
				this.#shards.map((_, shard) => this.#run<ShardStats>(STATS, shard, [...this.#clockArgs(), String(BACKLOG_COUNTED), String(DEPTH_ORIGINS)])),
			),
		);
	}
}
