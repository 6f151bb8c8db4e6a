/**
 * Where a Redis store keeps things. Every key starts with the store's prefix P (default
 * `revisit:`):
 *
 *   P meta                hash   format (record format, as a LevelDB store's meta),
 *                                layout (this key layout, 1), buckets (16)
 *   P {url.NN}:rec        hash   URL key → UrlRecord JSON, for the URLs of bucket NN
 *   P {url.NN}:idx        zset   the same URL keys, all with score 0: their byte order
 *   P {host.NN}:rec/:idx         the same for host records (key: origin)
 *   P {run.NN}:rec/:idx          the same for run rows (key: zero-padded start time)
 *   P {detail.NN}:rec/:idx       the same for run details (changed and failed URLs, same key)
 *   P {text.NN}:rec/:idx         the same for kept text blobs (key: the text's hash; JSON, the text in base64)
 *   P {versions.NN}:rec/:idx     the same for pages' version logs (key: the URL; JSON, the versions in base64)
 *   P {delivery.NN}:rec/:idx     the same for pending deliveries (key: TARGET/WHEN-SEQ; see src/io/outbox)
 *
 * e.g. `revisit:{url.07}:rec`. A key's bucket NN is FNV-1a (32-bit, over its UTF-8
 * bytes) modulo `buckets`, written with two digits.
 *
 * Why buckets: a record and its index entry must change in one transaction, so they share
 * a Redis Cluster hash tag (`{url.07}`); one tag for the whole store would put it all in
 * one slot, on one node. With 16 tags per kind a Cluster spreads the store over up to 16
 * nodes; every read goes to one bucket at a time (HMGET per bucket, pipelined), and on a
 * Cluster a batch is one transaction per bucket (redis-cluster.ts).
 *
 * Why a sorted set: SCAN and HSCAN come back in no order, and sorting every key client-side
 * would hold a million URLs in memory to list them. A zset whose scores are all 0 orders
 * its members by their bytes (as LevelDB orders keys), and ZRANGE … BYLEX LIMIT pages
 * through it in O(log n) per page; `entries()` merges the 16 buckets' pages.
 */
export const LAYOUT_VERSION = 1;
export const BUCKETS = 16;

export type Kind = 'url' | 'host' | 'run' | 'detail' | 'text' | 'versions' | 'delivery';

/** The meta hash of the store under `prefix`. */
export const metaKey = (prefix: string): string => `${prefix}meta`;

/** The record hash and the index zset of one bucket. */
export function bucketKeys(prefix: string, kind: Kind, bucket: number): { rec: string; idx: string } {
	const tag = `${prefix}{${kind}.${String(bucket).padStart(2, '0')}}`;
	return { rec: `${tag}:rec`, idx: `${tag}:idx` };
}

const encoder = new TextEncoder();

/**
 * The bucket of a record key: FNV-1a over its UTF-8 bytes, modulo `buckets`. Stable across
 * versions and machines: it decides where a key already stored is looked for.
 *
 * @example
 * bucketOf('https://example.org/', 16) // a number in 0..15, always the same one
 */
export function bucketOf(key: string, buckets: number): number {
	let hash = 0x811c9dc5;
	for (const byte of encoder.encode(key)) {
		hash ^= byte;
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash % buckets;
}
