import { StoreError } from '../../base/errors/index.js';
import type { DueQueue, QueueClock } from '../model/due.js';
import { connectRedis, type RedisLink, type RedisTimeouts } from './link.js';
import { BUCKETS, bucketKeys, bucketOf, LAYOUT_VERSION, metaKey, type Kind } from './layout.js';
import { mergeBuckets } from './merge.js';
import { parseRedisUrl, type RedisTarget } from './url.js';
import { blobFromJson, blobToJson } from '../model/text-blob.js';
import {
	RECORD_VERSION,
	type Delivery,
	type HostRecord,
	type RunDetail,
	type RunRecord,
	type StoreOperation,
	type TextBlob,
	type UrlRecord,
	type ValidatorStore,
	type VersionLog,
} from '../model/types.js';

export interface RedisStoreOptions extends RedisTimeouts {
	/** Create the store under its prefix when there is none (default true). */
	create?: boolean;
}

/**
 * A validator store on a Redis server or Redis Cluster, which any number of revisit
 * processes can share. Key layout and ordering: redis-layout.ts. Reads go to each bucket
 * once, pipelined into one round trip; on one server `batch` is one MULTI/EXEC, so it is
 * all or nothing, as on LevelDB (on a Cluster, all or nothing per bucket: see
 * redis-cluster.ts for why that is safe). Iteration pages through the buckets' sorted
 * indexes and merges them into key order; it is not a snapshot (LevelDB's iterators
 * are): a record written meanwhile may or may not be seen, and each key comes at most once.
 *
 * @example
 * const store = await RedisStore.open('redis://127.0.0.1:6379/0?prefix=revisit:');
 * try { await store.getMany(['https://example.org/']); } finally { await store.close(); }
 */
export class RedisStore implements ValidatorStore {
	readonly #link: RedisLink;
	readonly #prefix: string;
	readonly #buckets: number;

	private constructor(link: RedisLink, prefix: string, buckets: number) {
		this.#link = link;
		this.#prefix = prefix;
		this.#buckets = buckets;
	}

	/**
	 * Connects and checks the store's format. Throws StoreError: STORE_OPEN_FAILED (bad
	 * URL, server unreachable within `openTimeoutMs`, credentials refused), STORE_MISSING
	 * (`create: false` and no store under the prefix), STORE_FORMAT (a newer or foreign
	 * layout under the prefix; left as it is).
	 */
	static async open(url: string | RedisTarget, options: RedisStoreOptions = {}): Promise<RedisStore> {
		const target = typeof url === 'string' ? parseRedisUrl(url) : url;
		const link = await connectRedis(target, options);
		try {
			const buckets = await checkFormat(link, target.prefix, options.create ?? true);
			return new RedisStore(link, target.prefix, buckets);
		} catch (error) {
			await link.close();
			// NOAUTH and the like surface at the first command: still a failure to open.
			if (error instanceof StoreError && (error.code === 'STORE_READ_FAILED' || error.code === 'STORE_WRITE_FAILED')) {
				throw new StoreError('STORE_OPEN_FAILED', error.message.replace(/^could not (read from|write to)/, 'cannot open'), { cause: error });
			}
			throw error;
		}
	}

	getMany(keys: readonly string[]): Promise<Array<UrlRecord | undefined>> {
		return this.#get<UrlRecord>('url', keys);
	}

	getHosts(origins: readonly string[]): Promise<Array<HostRecord | undefined>> {
		return this.#get<HostRecord>('host', origins);
	}

	async #get<T>(kind: Kind, keys: readonly string[]): Promise<Array<T | undefined>> {
		const found = new Array<T | undefined>(keys.length).fill(undefined);
		const byBucket = new Map<number, number[]>();
		keys.forEach((key, i) => {
			const bucket = bucketOf(key, this.#buckets);
			const positions = byBucket.get(bucket);
			if (positions) positions.push(i);
			else byBucket.set(bucket, [i]);
		});
		// Issued together, the HMGETs go out in one write and come back in one round trip.
		await Promise.all(
			[...byBucket].map(async ([bucket, positions]) => {
				const values = await this.#link.read<Array<string | null>>(['HMGET', bucketKeys(this.#prefix, kind, bucket).rec, ...positions.map((i) => keys[i]!)]);
				values.forEach((value, j) => {
					if (value !== null) found[positions[j]!] = JSON.parse(value) as T;
				});
			}),
		);
		return found;
	}

	async batch(operations: readonly StoreOperation[]): Promise<void> {
		const commands: string[][] = [];
		for (const op of operations) {
			const kind = KIND_OF[op.type];
			const { rec, idx } = bucketKeys(this.#prefix, kind, bucketOf(op.key, this.#buckets));
			if (
				op.type === 'del' ||
				op.type === 'delHost' ||
				op.type === 'delRunDetail' ||
				op.type === 'delText' ||
				op.type === 'delVersions' ||
				op.type === 'delDelivery'
			)
				commands.push(['HDEL', rec, op.key], ['ZREM', idx, op.key]);
			else
				commands.push(
					['HSET', rec, op.key, op.type === 'putText' || op.type === 'putVersions' ? blobToJson(op.value) : JSON.stringify(op.value)],
					['ZADD', idx, '0', op.key],
				);
		}
		await this.#link.write(commands);
	}

	entries(): AsyncIterable<[string, UrlRecord]> {
		return this.#entries<UrlRecord>('url');
	}

	hostEntries(): AsyncIterable<[string, HostRecord]> {
		return this.#entries<HostRecord>('host');
	}

	runEntries(): AsyncIterable<[string, RunRecord]> {
		return this.#entries<RunRecord>('run');
	}

	getRunDetails(keys: readonly string[]): Promise<Array<RunDetail | undefined>> {
		return this.#get<RunDetail>('detail', keys);
	}

	async getTexts(keys: readonly string[]): Promise<Array<TextBlob | undefined>> {
		return (await this.#get<unknown>('text', keys)).map((parsed) => (parsed === undefined ? undefined : blobFromJson<TextBlob>(JSON.stringify(parsed))));
	}

	async *textEntries(): AsyncIterable<[string, TextBlob]> {
		for await (const [key, parsed] of this.#entries<unknown>('text')) yield [key, blobFromJson(JSON.stringify(parsed))];
	}

	async getVersions(keys: readonly string[]): Promise<Array<VersionLog | undefined>> {
		return (await this.#get<unknown>('versions', keys)).map((parsed) => (parsed === undefined ? undefined : blobFromJson<VersionLog>(JSON.stringify(parsed))));
	}

	async *versionEntries(): AsyncIterable<[string, VersionLog]> {
		for await (const [key, parsed] of this.#entries<unknown>('versions')) yield [key, blobFromJson<VersionLog>(JSON.stringify(parsed))];
	}

	deliveryEntries(target?: string): AsyncIterable<[string, Delivery]> {
		return this.#entries<Delivery>('delivery', target === undefined ? undefined : { from: `${target}/`, below: `${target}0` });
	}

	#entries<T>(kind: Kind, range?: { from: string; below: string }): AsyncIterable<[string, T]> {
		const buckets = Array.from({ length: this.#buckets }, (_, bucket) => bucketKeys(this.#prefix, kind, bucket));
		return mergeBuckets<T>(this.#link, buckets, range);
	}

	/** The watch schedule under this store's prefix (store/redis/due/queue.ts), loaded when first asked for. */
	async dueQueue(clock: QueueClock): Promise<DueQueue> {
		const { RedisDueQueue } = await import('./due/queue.js');
		return RedisDueQueue.open(this.#link, this.#prefix, clock);
	}

	async close(): Promise<void> {
		await this.#link.close();
	}
}

const KIND_OF: Record<StoreOperation['type'], Kind> = {
	put: 'url',
	del: 'url',
	putHost: 'host',
	delHost: 'host',
	putRun: 'run',
	putRunDetail: 'detail',
	delRunDetail: 'detail',
	putText: 'text',
	delText: 'text',
	putVersions: 'versions',
	delVersions: 'versions',
	putDelivery: 'delivery',
	delDelivery: 'delivery',
};

/** Reads (or, when allowed and nothing is there, writes) the meta hash; returns the bucket count. */
async function checkFormat(link: RedisLink, prefix: string, create: boolean): Promise<number> {
	const key = metaKey(prefix);
	const refuse = (why: string) => new StoreError('STORE_FORMAT', `the Redis store ${link.name} ${why}; it was left as it is`);
	const type = await link.read<string>(['TYPE', key]);
	if (type !== 'none' && type !== 'hash')
		throw refuse(`has a ${key} that is a ${type}, not revisit's meta hash: another program's keys, or another prefix is needed`);
	const [format, layout, buckets] = (await link.read<Array<string | null>>(['HMGET', key, 'format', 'layout', 'buckets'])).map((value) =>
		value === null ? undefined : Number(value),
	);
	if (type === 'none') {
		if (await hasBuckets(link, prefix)) throw refuse(`has revisit's keys but no ${key}: it was damaged, or written by something else`);
		if (!create) throw new StoreError('STORE_MISSING', `no store at ${link.name}: run a sweep first, or give --store`);
		// HSETNX: two processes creating the store at once write the same values, and neither overwrites a newer one.
		await link.write([
			['HSETNX', key, 'format', String(RECORD_VERSION)],
			['HSETNX', key, 'layout', String(LAYOUT_VERSION)],
			['HSETNX', key, 'buckets', String(BUCKETS)],
		]);
		return checkFormat(link, prefix, false);
	}
	if (!Number.isInteger(format) || format! > RECORD_VERSION)
		throw refuse(`has format ${JSON.stringify(format ?? null)}, newer than this revisit understands (${RECORD_VERSION}); upgrade revisit`);
	if (layout !== LAYOUT_VERSION)
		throw refuse(`has key layout ${JSON.stringify(layout ?? null)}; this revisit understands layout ${LAYOUT_VERSION}; upgrade revisit`);
	if (!Number.isInteger(buckets) || buckets! < 1 || buckets! > 99) throw refuse(`has ${JSON.stringify(buckets ?? null)} buckets, not a number from 1 to 99`);
	return buckets!;
}

async function hasBuckets(link: RedisLink, prefix: string): Promise<boolean> {
	const kinds: Kind[] = ['url', 'host', 'run', 'detail', 'text', 'versions', 'delivery'];
	const keys = kinds.flatMap((kind) => Array.from({ length: BUCKETS }, (_, bucket) => Object.values(bucketKeys(prefix, kind, bucket))).flat());
	// One EXISTS per key rather than one for all: a Cluster refuses multi-key commands across slots.
	const counts = await Promise.all(keys.map((key) => link.read<number>(['EXISTS', key])));
	return counts.some((count) => count > 0);
}
