import { bucketOf } from '../layout.js';
import type { RedisLink } from '../link.js';
import { dueBase, dueKey } from './keys.js';

/**
 * How the Redis watch schedule is cut into shards (redis-keys.ts has the keys of one).
 *
 * A Lua script on a Redis Cluster may touch the keys of one slot only, and a claim must be
 * one script (no URL claimed twice, `--per-host` held). So the schedule is cut by origin
 * into shards, each under its own hash tag: an origin's queue, its host hash and the
 * shard's ready index share the tag, and a claim round is one script on one shard, so on
 * one node. On one Redis server there is one shard, the `{due}` tag of before; on a
 * Cluster, CLUSTER_SHARDS of them, whose tags are chosen so that their slots lie evenly
 * over the 16384 (one in each 1024-slot stretch): a Cluster that splits its slots into
 * even ranges (as `redis-cli --cluster create` does) gives each node an even share.
 */

/** Shards of a schedule made on a Redis Cluster: spread over up to this many nodes. */
export const CLUSTER_SHARDS = 16;

const SLOTS = 16_384;

/**
 * The Redis Cluster slot of a hash tag: CRC16/XMODEM modulo 16384.
 *
 * @example
 * clusterSlot('due') // the slot of every `P{due}…` key
 */
export function clusterSlot(tag: string): number {
	let crc = 0;
	for (const byte of Buffer.from(tag)) {
		crc ^= byte << 8;
		for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc % SLOTS;
}

/**
 * Shard i's tag `due.II.K`, with the least K that puts its slot in the i-th stretch of the slot space: fixed, so every process and version finds the same keys.
 */
function spreadTag(i: number, count: number): string {
	const from = Math.floor((i * SLOTS) / count);
	const below = Math.floor(((i + 1) * SLOTS) / count);
	for (let k = 0; ; k++) {
		const tag = `due.${String(i).padStart(2, '0')}.${k}`;
		const slot = clusterSlot(tag);
		if (slot >= from && slot < below) return tag;
	}
}

const SPREAD_TAGS = Array.from({ length: CLUSTER_SHARDS }, (_, i) => spreadTag(i, CLUSTER_SHARDS));

/**
 * The base key of each shard of a schedule of `count` shards under `prefix`: `P{due}` for
 * one (the layout of a schedule from before shards), else `P{due.II.K}`.
 *
 * @example
 * shardBases('revisit:', 1) // ['revisit:{due}']
 */
export function shardBases(prefix: string, count: number): string[] {
	if (count === 1) return [dueBase(prefix)];
	if (count !== CLUSTER_SHARDS) throw new RangeError(`Expected 1 or ${CLUSTER_SHARDS} shards, got ${count}`);
	return SPREAD_TAGS.map((tag) => `${prefix}{${tag}}`);
}

/**
 * The shard an origin's URLs are kept in: FNV-1a of the origin modulo the shard count.
 *
 * @example
 * shardOf('https://example.org', 16) // a number in 0..15, always the same one
 */
export function shardOf(origin: string, count: number): number {
	return count === 1 ? 0 : bucketOf(origin, count);
}

/**
 * The shards a URL may be in when only the URL is known (`has`, `remove`, a `release`
 * without a token): its own origin's, when it is an absolute URL with one (as every URL
 * the watch schedules is, under its own origin), else every shard.
 *
 * @example
 * shardsOfUrl('https://example.org/a', 16) // [shardOf('https://example.org', 16)]
 */
export function shardsOfUrl(url: string, count: number): number[] {
	if (count === 1) return [0];
	let origin = 'null';
	try {
		origin = new URL(url).origin;
	} catch {
		// not a URL: looked for everywhere
	}
	return origin === 'null' ? Array.from({ length: count }, (_, i) => i) : [shardOf(origin, count)];
}

/**
 * The shard count of the schedule at `base` (`P{due}`) on a Cluster: as stored; else one
 * for a schedule from before shards (its keys are under `{due}`), else CLUSTER_SHARDS,
 * stored with SET NX so that processes starting together agree.
 *
 * @example
 * const count = link.cluster ? await shardCount(link, dueBase('revisit:')) : 1;
 */
export async function shardCount(link: RedisLink, base: string): Promise<number> {
	const key = dueKey(base, 'shards');
	const stored = await link.read<string | null>(['GET', key]);
	if (stored !== null) return Number(stored);
	const old = (await link.read<number>(['EXISTS', dueKey(base, 'place')])) + (await link.read<number>(['EXISTS', dueKey(base, 'lease')]));
	await link.write([['SET', key, String(old > 0 ? 1 : CLUSTER_SHARDS), 'NX']]);
	return Number(await link.read<string>(['GET', key]));
}
