import { existsSync } from 'node:fs';
import path from 'node:path';
import { Level } from 'level';
import { StoreError } from '../../base/errors/index.js';
import { descriptorBudget, openFileLimit } from '../../base/util/descriptors.js';
import { LevelDueQueue } from './due/queue.js';
import { describeNarrowed, makePrivateDir, narrowModes } from './modes.js';
import { openError, refuseForeign } from './open.js';
import type { Op } from './due/keys.js';
import type { DueQueue, QueueClock } from '../model/due.js';
import { blobFromBytes, blobToBytes } from '../model/text-blob.js';
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

const FORMAT_KEY = 'format';
/**
 * LevelDB's write buffer (its default is 4 MiB) and block cache (8 MiB), chosen by
 * measurement (bench/WATCH-SPEED.md, 2026-12-07): a watch at full speed over 1M URLs
 * writes every URL's record and place once per check, and with twice the buffer LevelDB
 * compacts about half as much per check (0.14 to 0.17 ms of CPU against 0.27 to 0.30 ms).
 * The buffer is held twice while one is written out, so the cache gives back what it
 * adds: the records are read once per check, in no order a cache helps, and the peak RSS
 * stays as it was.
 */
const WRITE_BUFFER_BYTES = 8 * 1024 * 1024;
const CACHE_BYTES = 2 * 1024 * 1024;

/**
 * URL records `readPass` reads between two reopenings of the database. LevelDB maps every
 * table it holds open (up to 64 at its smallest `maxOpenFiles`), and a table's pages, once
 * read, stay in the process's RSS until it is unmapped: a pass over a 1M-URL store (134 MiB
 * of tables) kept ~112 MiB of them. Closing the database unmaps them. 50,000 records are
 * ~7 MiB of tables at ~140 bytes each, and a reopen costs a few ms (bench/BUDGET.md).
 */
const PASS_SEGMENT = 50_000;
type Meta = { format: number };

/**
 * The embedded default store: a LevelDB directory. Records live in the `url`
 * sublevel as JSON; the `meta` sublevel holds the store format version, so that an
 * older revisit refuses a newer store instead of overwriting it.
 *
 * @example
 * const store = await LevelStore.open('.revisit');
 * try { ... } finally { await store.close(); }
 */
export class LevelStore implements ValidatorStore {
	readonly #db: Level<string, unknown>;
	/** The directory, whose files LevelDB adds to as it goes: made 0600 after each (re)open and at close. */
	readonly #dir: string;
	readonly #urls;
	readonly #hosts;
	readonly #runs;
	readonly #details;
	readonly #texts;
	readonly #versions;
	readonly #deliveries;
	/** The schedules opened on this store, closed with it. */
	readonly #queues: LevelDueQueue[] = [];

	private constructor(db: Level<string, unknown>, dir: string) {
		this.#db = db;
		this.#dir = dir;
		this.#urls = db.sublevel<string, UrlRecord>('url', { valueEncoding: 'json' });
		this.#hosts = db.sublevel<string, HostRecord>('host', { valueEncoding: 'json' });
		this.#runs = db.sublevel<string, RunRecord>('run', { valueEncoding: 'json' });
		this.#details = db.sublevel<string, RunDetail>('detail', { valueEncoding: 'json' });
		// Bytes, not JSON: the compressed text is stored as it is, without base64.
		this.#texts = db.sublevel<string, Uint8Array>('text', { valueEncoding: 'view' });
		this.#deliveries = db.sublevel<string, Delivery>('delivery', { valueEncoding: 'json' });
		this.#versions = db.sublevel<string, Uint8Array>('versions', { valueEncoding: 'view' });
	}

	/**
	 * Opens the store in `dir`, creating it unless `create` is false. Throws StoreError
	 * with a stable code: STORE_LOCKED, STORE_MISSING, STORE_OPEN_FAILED, STORE_FORMAT.
	 * A new store's directory is made 0700 and its files 0600; an existing one is narrowed
	 * to the same, and when its directory was open to other users, `notice` is given one
	 * line saying so.
	 */
	static async open(dir: string, options: { create?: boolean; notice?: (line: string) => void } = {}): Promise<LevelStore> {
		await refuseForeign(dir);
		const create = options.create ?? true;
		try {
			if (create) await makePrivateDir(dir);
		} catch (error) {
			throw openError(dir, error);
		}
		// Before LevelDB adds its own new files (a log, a manifest), so that the line names only what was there.
		// Files LevelDB made since the last close (a running watch's new tables) sit in a 0700 directory, out of
		// other users' reach: only a directory they could enter makes the store one that was open to them.
		const narrowed = await narrowModes(dir);
		if (narrowed.some((entry) => path.resolve(entry.path) === path.resolve(dir))) options.notice?.(describeNarrowed(dir, narrowed));
		const db = new Level<string, unknown>(dir, {
			valueEncoding: 'json',
			createIfMissing: create,
			// LevelDB's files within its share of the descriptor limit, which the HTTP side
			// leaves free (base/util/descriptors.ts): it must always be able to open its next log.
			maxOpenFiles: descriptorBudget(openFileLimit()).storeFiles,
			writeBufferSize: WRITE_BUFFER_BYTES,
			cacheSize: CACHE_BYTES,
		});
		try {
			await db.open();
		} catch (error) {
			if (options.create === false && !existsSync(path.join(dir, 'CURRENT'))) {
				throw new StoreError('STORE_MISSING', `no store at ${dir}: run a sweep first, or give --store`, { cause: error });
			}
			throw openError(dir, error);
		}
		await narrowModes(dir);
		const store = new LevelStore(db, dir);
		await store.#checkFormat(dir);
		return store;
	}

	async #checkFormat(dir: string): Promise<void> {
		const meta = this.#db.sublevel<string, Meta | number>('meta', { valueEncoding: 'json' });
		const format = await meta.get(FORMAT_KEY);
		if (format === undefined) {
			await meta.put(FORMAT_KEY, RECORD_VERSION);
		} else if (typeof format !== 'number' || format > RECORD_VERSION) {
			await this.#db.close();
			throw new StoreError(
				'STORE_FORMAT',
				`store ${dir} has format ${JSON.stringify(format)}, newer than this revisit understands (${RECORD_VERSION}); upgrade revisit`,
			);
		}
	}

	async dueQueue(clock: QueueClock): Promise<DueQueue> {
		const queue = await LevelDueQueue.open(this.#db as never, clock, (operations) => this.#levelOps(operations as readonly StoreOperation[]));
		this.#queues.push(queue);
		return queue;
	}

	async getMany(keys: readonly string[]): Promise<Array<UrlRecord | undefined>> {
		return this.#urls.getMany([...keys]);
	}

	async getHosts(origins: readonly string[]): Promise<Array<HostRecord | undefined>> {
		return this.#hosts.getMany([...origins]);
	}

	async batch(operations: readonly StoreOperation[]): Promise<void> {
		if (operations.length === 0) return;
		try {
			await this.#db.batch(this.#levelOps(operations) as never);
		} catch (error) {
			throw new StoreError('STORE_WRITE_FAILED', `could not write to the store: ${(error as Error).message}`, { cause: error });
		}
	}

	/** The store's operations as operations on its database, for its batch or the schedule's (`DueQueue.doneWith`). */
	#levelOps(operations: readonly StoreOperation[]): Op[] {
		return operations.map((op): Op => {
			switch (op.type) {
				case 'put':
					return { type: 'put', sublevel: this.#urls, key: op.key, value: op.value } as const;
				case 'del':
					return { type: 'del', sublevel: this.#urls, key: op.key } as const;
				case 'putHost':
					return { type: 'put', sublevel: this.#hosts, key: op.key, value: op.value } as const;
				case 'delHost':
					return { type: 'del', sublevel: this.#hosts, key: op.key } as const;
				case 'putRunDetail':
					return { type: 'put', sublevel: this.#details, key: op.key, value: op.value } as const;
				case 'delRunDetail':
					return { type: 'del', sublevel: this.#details, key: op.key } as const;
				case 'putText':
					return { type: 'put', sublevel: this.#texts, key: op.key, value: blobToBytes(op.value) } as const;
				case 'delText':
					return { type: 'del', sublevel: this.#texts, key: op.key } as const;
				case 'putVersions':
					return { type: 'put', sublevel: this.#versions, key: op.key, value: blobToBytes(op.value) } as const;
				case 'delVersions':
					return { type: 'del', sublevel: this.#versions, key: op.key } as const;
				case 'putDelivery':
					return { type: 'put', sublevel: this.#deliveries, key: op.key, value: op.value } as const;
				case 'delDelivery':
					return { type: 'del', sublevel: this.#deliveries, key: op.key } as const;
				default:
					return { type: 'put', sublevel: this.#runs, key: op.key, value: op.value } as const;
			}
		});
	}

	entries(): AsyncIterable<[string, UrlRecord]> {
		return this.#urls.iterator();
	}

	/** Every URL record, in key order: a segment of PASS_SEGMENT at a time, the database reopened between two to let go of the tables read. */
	async *readPass(): AsyncIterable<[string, UrlRecord]> {
		let after: string | undefined;
		for (;;) {
			let read = 0;
			for await (const [key, record] of this.#urls.iterator(after === undefined ? {} : { gt: after })) {
				yield [key, record];
				after = key;
				if (++read === PASS_SEGMENT) break;
			}
			if (read < PASS_SEGMENT) return;
			await this.#reopen();
		}
	}

	/** Closes the database and opens it again: LevelDB unmaps every table it held. Its sublevels close with it, and are opened again too. */
	async #reopen(): Promise<void> {
		await this.#db.close();
		await this.#db.open();
		await narrowModes(this.#dir);
		await Promise.all([this.#urls, this.#hosts, this.#runs, this.#details, this.#texts, this.#versions, this.#deliveries].map((sublevel) => sublevel.open()));
	}

	hostEntries(): AsyncIterable<[string, HostRecord]> {
		return this.#hosts.iterator();
	}

	runEntries(): AsyncIterable<[string, RunRecord]> {
		return this.#runs.iterator();
	}

	async getRunDetails(keys: readonly string[]): Promise<Array<RunDetail | undefined>> {
		return this.#details.getMany([...keys]);
	}

	async getTexts(keys: readonly string[]): Promise<Array<TextBlob | undefined>> {
		return (await this.#texts.getMany([...keys])).map((bytes) => (bytes === undefined ? undefined : blobFromBytes<TextBlob>(bytes)));
	}

	async *textEntries(): AsyncIterable<[string, TextBlob]> {
		for await (const [key, bytes] of this.#texts.iterator()) yield [key, blobFromBytes<TextBlob>(bytes)];
	}

	async getVersions(keys: readonly string[]): Promise<Array<VersionLog | undefined>> {
		return (await this.#versions.getMany([...keys])).map((bytes) => (bytes === undefined ? undefined : blobFromBytes<VersionLog>(bytes)));
	}

	async *versionEntries(): AsyncIterable<[string, VersionLog]> {
		for await (const [key, bytes] of this.#versions.iterator()) yield [key, blobFromBytes<VersionLog>(bytes)];
	}

	deliveryEntries(target?: string): AsyncIterable<[string, Delivery]> {
		// `/` is followed by `0` in byte order: the range holds exactly the keys `TARGET/…`.
		return this.#deliveries.iterator(target === undefined ? {} : { gte: `${target}/`, lt: `${target}0` });
	}

	async close(): Promise<void> {
		// What the schedule keeps in memory between writes (its rate histogram) goes to disk first.
		for (const queue of this.#queues.splice(0)) await queue.close();
		await this.#db.close();
		await narrowModes(this.#dir);
	}
}
