import { collectTexts } from './text-gc.js';
import type { RunRecord, StoreOperation, UrlRecord, StoreReader, StoreWriter } from './model/types.js';
import { OptionError } from '../base/errors/index.js';

export interface PruneOptions {
	/** URL records last checked before this time (epoch ms) are deleted. */
	before: number;
	/** Now (epoch ms): a record whose next check is scheduled after it is kept, however old. */
	now: number;
	/** Count only; change nothing. */
	dryRun?: boolean;
	/** Deletes per store.batch (default 1000). */
	batchSize?: number;
}

export interface PruneResult {
	/** URL records deleted (or, dry run, that would be). */
	urls: number;
	/** URL records kept. */
	keptUrls: number;
	/** Host rows deleted: no URL record refers to their origin any more. */
	hosts: number;
	/** Host rows kept. */
	keptHosts: number;
	/** Orphaned host rows kept because they carry a hand-set mode (`revisit hosts set`). */
	keptOverrides: number;
	/**
	 * Kept text blobs deleted because no record or version log points to them any more
	 * (not counted by a dry run), and the text total left (blobs and version logs).
	 */
	texts: number;
	textBytes?: number;
	/** Version logs deleted with their URLs (not counted by a dry run). */
	versions?: number;
}

/**
 * Whether a URL record is stale: last checked before `before`, and not scheduled for a
 * later check (`nextDue` after `now`, with --ttl or --adaptive), which would mean it is
 * still swept, only rarely.
 */
export function isStale(record: UrlRecord, before: number, now: number): boolean {
	return record.lastChecked < before && !(record.nextDue !== undefined && record.nextDue > now);
}

/**
 * Deletes stale URL records, then host rows that no URL record refers to any more, then
 * the version logs of URLs no longer kept, then the kept text nothing points to (lowering
 * the text total of the last run row), in
 * batches of `batchSize` deletes written while iterating. Safe on LevelDB: an iterator
 * reads a snapshot taken when it was created, and only keys it has already passed are
 * deleted. A host row counts as referred to by the origin of a kept record's key, and
 * of its finalUrl (a permanent redirect makes the sweep probe, and keep host figures
 * for, the destination's origin). Orphaned host rows with a hand-set mode are kept.
 *
 * @example
 * await pruneStore(store, { before: Date.now() - 30 * 86_400_000, now: Date.now() }) // { urls: 1200, hosts: 3, ... }
 */
export async function pruneStore(store: StoreReader & StoreWriter, options: PruneOptions): Promise<PruneResult> {
	const batchSize = options.batchSize ?? 1000;
	if (!Number.isInteger(batchSize) || batchSize < 1)
		throw new OptionError('batchSize', `Expected \`batchSize\` to be a positive integer, got \`${batchSize}\``);
	if (!Number.isFinite(options.before) || !Number.isFinite(options.now))
		throw new OptionError(Number.isFinite(options.before) ? 'now' : 'before', 'Expected `before` and `now` to be epoch milliseconds');
	const result: PruneResult = { urls: 0, keptUrls: 0, hosts: 0, keptHosts: 0, keptOverrides: 0, texts: 0 };
	let pending: StoreOperation[] = [];
	const flush = async (): Promise<void> => {
		if (pending.length > 0 && !options.dryRun) await store.batch(pending);
		pending = [];
	};
	const live = new Set<string>();
	const originOf = cachedOrigin();

	for await (const [key, record] of store.entries()) {
		if (isStale(record, options.before, options.now)) {
			result.urls++;
			pending.push({ type: 'del', key });
			if (pending.length >= batchSize) await flush();
		} else {
			result.keptUrls++;
			const origin = originOf(key);
			if (origin !== undefined) live.add(origin);
			if (record.finalUrl !== undefined) {
				const final = originOf(record.finalUrl);
				if (final !== undefined) live.add(final);
			}
		}
	}
	await flush();

	for await (const [origin, host] of store.hostEntries()) {
		if (live.has(origin)) {
			result.keptHosts++;
		} else if (host.override !== undefined) {
			result.keptHosts++;
			result.keptOverrides++;
		} else {
			result.hosts++;
			pending.push({ type: 'delHost', key: origin });
			if (pending.length >= batchSize) await flush();
		}
	}
	await flush();
	if (!options.dryRun) {
		result.versions = await dropOrphanLogs(store, batchSize);
		await collectPrunedTexts(store, result);
	}
	return result;
}

/**
 * Deletes the version logs of URLs that have no record any more (those just pruned), once
 * the logs have been read through: a Redis iteration pages through its index, which
 * deleting under it would shift.
 */
async function dropOrphanLogs(store: StoreReader & StoreWriter, batchSize: number): Promise<number> {
	const orphans: string[] = [];
	let keys: string[] = [];
	const check = async (): Promise<void> => {
		const records = await store.getMany(keys);
		orphans.push(...keys.filter((_, i) => records[i] === undefined));
		keys = [];
	};
	for await (const [key] of store.versionEntries()) {
		keys.push(key);
		if (keys.length >= batchSize) await check();
	}
	await check();
	for (let i = 0; i < orphans.length; i += batchSize)
		await store.batch(orphans.slice(i, i + batchSize).map((key): StoreOperation => ({ type: 'delVersions', key })));
	return orphans.length;
}

/**
 * Drops the text blobs of the records pruned (and any other no record points to), and
 * writes the total left into the last run row, where the next sweep counts on from.
 */
async function collectPrunedTexts(store: StoreReader & StoreWriter, result: PruneResult): Promise<void> {
	const collected = await collectTexts(store, { maxBytes: Infinity });
	result.texts = collected.unreferenced;
	result.textBytes = collected.bytes;
	let last: [string, RunRecord] | undefined;
	for await (const entry of store.runEntries()) last = entry;
	if (last && last[1].textBytes !== undefined && last[1].textBytes !== collected.bytes) {
		await store.batch([{ type: 'putRun', key: last[0], value: { ...last[1], textBytes: collected.bytes } }]);
	}
}

/**
 * The origin of a URL, fast for runs of keys on one origin (the store is in key order):
 * a normalised http(s) URL that starts with the previous origin followed by `/` has that
 * origin, since the authority ends at the first `/`. Anything else goes through the URL
 * parser; `undefined` for a key that does not parse.
 */
function cachedOrigin(): (url: string) => string | undefined {
	let last = '';
	return (url) => {
		if (last !== '' && url.startsWith(last) && url.charCodeAt(last.length) === 47) return last;
		try {
			const origin = new URL(url).origin;
			if (origin !== 'null') last = origin;
			return origin;
		} catch {
			return undefined;
		}
	};
}
