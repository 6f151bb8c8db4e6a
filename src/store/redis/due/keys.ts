/**
 * Where the watch schedule on Redis keeps things (store/redis/due/queue.ts), under the store's
 * prefix P. It is cut by origin into shards (redis-shards.ts), each under its own Redis
 * Cluster hash tag: one, `P{due}`, on one Redis server; 16 on a Cluster, spread over its
 * nodes. Each shard S (its base key, e.g. `P{due}` or `P{due.07.3}`) holds its origins':
 *
 *   S:at:ORIGIN   zset   the origin's unclaimed URLs by due time
 *   S:ready       zset   the shard's origins with unclaimed URLs, by when each may next
 *                        be asked: the later of its first due time and its last claim + its
 *                        gap (the shard's ready index: what a claim round reads)
 *   S:first       zset   the same origins by their first unclaimed due time (for stats)
 *   S:place       hash   URL → `bin|due|origin`, every URL of the shard
 *   S:count       hash   origin → how many URLs it has in the schedule
 *   S:host:ORIGIN hash   g: its gap (ms), c: when last claimed from, k: claims held;
 *                        t, u: who holds its turn to send and until when, n: when the
 *                        next send may go (wall ms; DueQueue.turn)
 *   S:lease       zset   claimed URLs by when their lease runs out
 *   S:held        hash   claimed URL → `token|origin`: the claim's token and origin
 *   S:ans         hash   claimed URL → 1 once its requests are over (`answered`): its
 *                        origin's place (k) is given back then, not again when it ends
 *   S:seq         string the shard's last claim token
 *   S:bins        hash   rate bin → URLs (the shard's part of the rate histogram)
 *   S:slot        string the pacing slot: the schedule time the shard's next check comes
 *   S:nb          hash   URL → not claimed ahead of its due time before this (pull-ahead)
 *
 * and under `P{due}`, whichever node holds it, what is not per origin:
 *
 *   P{due}:shards      string how many shards (absent: one, a schedule from before shards)
 *   P{due}:clock       string the schedule's clock (QueueClock JSON)
 *   P{due}:src:SOURCE  hash   URL → the last reading of SOURCE that listed it
 *   P{due}:srcs        set    the SOURCEs marked (a URL one of them still lists is not swept out)
 *   P{due}:saved:NAME  string a JSON value kept with the schedule (the watch's threshold)
 *
 * The Lua scripts (redis-scripts.ts, redis-claim-scripts.ts, redis-turn-scripts.ts) build
 * the same keys from the base key they are given.
 */

/**
 * The schedule's own base key under `prefix`: the clock, listings, saved values and shard
 * count, and the one shard of a schedule on one Redis server.
 *
 * @example
 * dueBase('revisit:') // 'revisit:{due}'
 */
export function dueBase(prefix: string): string {
	return `${prefix}{due}`;
}

/**
 * Key `S:a:b…` under base key `base` (a shard's or `P{due}`), as laid out above.
 *
 * @example
 * dueKey('revisit:{due}', 'src', 'urls.txt') // 'revisit:{due}:src:urls.txt'
 */
export function dueKey(base: string, ...parts: string[]): string {
	return [base, ...parts].join(':');
}
