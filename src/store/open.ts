import { StoreError, UsageError } from '../base/errors/index.js';
import { LevelStore } from './level/store.js';
import type { RedisTimeouts } from './redis/link.js';
import { shownUrl } from '../base/util/shown-url.js';
import { isRedisSpec } from './redis/url.js';
import type { ValidatorStore, WatchedStore } from './model/types.js';

export interface OpenStoreOptions {
	/** Create the store when there is none (default true); read-only commands pass false. */
	create?: boolean;
	/** Connect and reconnect limits of a Redis store. */
	redis?: RedisTimeouts;
	/**
	 * The caller only reads, or sets hosts' hand overrides (`revisit hosts set`): a LevelDB
	 * store held by a running `revisit watch` is then used through the watch
	 * (socket/store.ts: a WatchedStore, which reads and takes hand overrides only) rather
	 * than refused as STORE_LOCKED.
	 */
	viaWatch?: boolean;
	/**
	 * Told the one line that says a LevelDB store other users could read was made the
	 * user's alone (its directory 0700, its files 0600); by default it goes to stderr.
	 */
	notice?: (line: string) => void;
}

const toStderr = (line: string): void => void process.stderr.write(`revisit: ${line}\n`);

/**
 * Opens the store a spec names: `redis://[user:password@]host:port[/db][?prefix=NAME]`
 * (or `rediss://` for TLS) is a Redis store, `redis+cluster://host:port[?prefix=NAME]`
 * one on a Redis Cluster, anything else a LevelDB directory. Failures
 * are StoreErrors with stable codes (STORE_OPEN_FAILED, STORE_MISSING, STORE_LOCKED,
 * STORE_FORMAT), and no message carries a password. A LevelDB directory is made 0700
 * and its files 0600, an existing one narrowed to that with a line to `notice`. The
 * Redis client is loaded only when a Redis store is opened. With `viaWatch`, a LevelDB store that a running watch holds is
 * read through the watch (it answers on `watch.sock` in the store directory): then the
 * store may be a WatchedStore, which reads and takes hosts' hand overrides but has no
 * `batch` or `dueQueue`, so the caller asks for what it uses (StoreReader, most often).
 *
 * The library's functions that use a store take what this returns (and leave it open) as
 * well as a spec (opened and closed for the call): one store opened for several reads.
 *
 * @example
 * const store = await openStore(process.env.REVISIT_STORE ?? '.revisit', { create: false, viaWatch: true });
 * try { for await (const [url] of store.entries()) console.log(url); } finally { await store.close(); }
 */
export function openStore(spec: string, options: OpenStoreOptions & { viaWatch: true }): Promise<ValidatorStore | WatchedStore>;
export function openStore(spec: string, options?: OpenStoreOptions & { viaWatch?: false | undefined }): Promise<ValidatorStore>;
export function openStore(spec: string, options?: OpenStoreOptions): Promise<ValidatorStore | WatchedStore>;
export async function openStore(spec: string, options: OpenStoreOptions = {}): Promise<ValidatorStore | WatchedStore> {
	if (typeof spec !== 'string' || spec === '')
		throw new UsageError(`openStore: expected a store directory or a redis:// URL, got ${spec === '' ? 'an empty string' : typeof spec}`, { help: false });
	if (isRedisSpec(spec)) {
		const { RedisStore } = await import('./redis/store.js');
		return RedisStore.open(spec, { ...options.redis, ...(options.create === undefined ? {} : { create: options.create }) });
	}
	try {
		return await LevelStore.open(spec, { notice: options.notice ?? toStderr, ...(options.create === undefined ? {} : { create: options.create }) });
	} catch (error) {
		if (!(error instanceof StoreError && error.code === 'STORE_LOCKED')) throw error;
		const { SocketStore } = await import('./socket/store.js');
		const watch = await SocketStore.connect(spec);
		if (!watch) throw error;
		if (options.viaWatch) return watch;
		throw new StoreError(
			'STORE_LOCKED',
			`store ${spec} is locked: a running revisit watch holds it (history, report, log, diff, stats, due, export and hosts set go through the watch); ` +
				`stop the watch to change it`,
			{ cause: error },
		);
	}
}

/**
 * True when several processes can use the store at once (Redis), false when one process
 * holds it while open (a LevelDB directory: STORE_LOCKED for the others).
 *
 * @example
 * storeIsShared('redis://127.0.0.1:6379') // true
 */
export function storeIsShared(spec: string): boolean {
	return isRedisSpec(spec);
}

/**
 * A store spec fit for messages: a directory as given, a Redis URL without its password.
 *
 * @example
 * describeStore('redis://app:s3cret@db:6379') // 'redis://app:***@db:6379'
 */
export function describeStore(spec: string): string {
	return shownUrl(spec);
}
