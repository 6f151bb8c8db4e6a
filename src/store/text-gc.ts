import { blobSize } from './model/text-blob.js';
import { packVersions, unpackVersions } from './model/version-log.js';
import type { StoreOperation, StoreReader, StoreWriter } from './model/types.js';

/** What a collection of kept text found and did. */
export interface TextCollection {
	/** Bytes of the blobs and version logs left (what `--keep-text-total` counts), and how many blobs. */
	bytes: number;
	blobs: number;
	/** Blobs deleted because no record or version log pointed to them any more. */
	unreferenced: number;
	/** Older versions of pages dropped, oldest first, to bring the total under the bound. */
	versions: number;
	/** Blobs deleted, least recently taken first, when dropping every older version was not enough. */
	evicted: number;
}

interface LogHead {
	key: string;
	oldest: number;
	count: number;
	size: number;
	latest: string;
}

/**
 * Collects the store's kept text: deletes the blobs no URL record or version log points
 * to (pages that changed to another text, were pruned, or went), then, while the rest is
 * over `maxBytes`, down to `targetBytes` (default nine tenths of the bound, so that the
 * next runs have room before collecting again): first pages' older versions, the oldest
 * in the store first, never a page's newest; then, only if that was not enough, the
 * newest texts least recently taken (the pages that changed longest ago), with the logs
 * made from them. Reads every record, blob and log head once: the end of a sweep runs it
 * only when its total passes the bound, and `revisit prune` always.
 *
 * @example
 * const { bytes } = await collectTexts(store, { maxBytes: 256 << 20 });
 */
export async function collectTexts(store: StoreReader & StoreWriter, options: { maxBytes: number; targetBytes?: number }): Promise<TextCollection> {
	const referenced = new Set<string>();
	for await (const [, record] of store.entries()) if (record.text?.hash !== undefined) referenced.add(record.text.hash);
	const logs: LogHead[] = [];
	let bytes = 0;
	for await (const [key, log] of store.versionEntries()) {
		referenced.add(log.latest);
		logs.push({ key, oldest: log.oldest, count: log.count, size: blobSize(log), latest: log.latest });
		bytes += blobSize(log);
	}
	const live: Array<{ key: string; at: number; size: number }> = [];
	const deletes: StoreOperation[] = [];
	// Deleted after the iteration: a Redis iteration pages through the index, which deleting under it would shift.
	for await (const [key, blob] of store.textEntries()) {
		if (!referenced.has(key)) deletes.push({ type: 'delText', key });
		else {
			live.push({ key, at: blob.at, size: blobSize(blob) });
			bytes += blobSize(blob);
		}
	}
	const unreferenced = deletes.length;
	const target = options.targetBytes ?? Math.floor(options.maxBytes * 0.9);
	let versions = 0;
	let evicted = 0;
	if (bytes > options.maxBytes) {
		const trimmed = await trimOldest(store, logs, bytes - target);
		bytes -= trimmed.saved;
		versions = trimmed.dropped;
	}
	if (bytes > options.maxBytes) {
		const logsOf = new Map<string, LogHead[]>();
		for (const log of logs) logsOf.set(log.latest, [...(logsOf.get(log.latest) ?? []), log]);
		live.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1));
		for (const blob of live) {
			if (bytes <= target) break;
			deletes.push({ type: 'delText', key: blob.key });
			bytes -= blob.size;
			evicted++;
			for (const log of logsOf.get(blob.key) ?? []) {
				deletes.push({ type: 'delVersions', key: log.key });
				bytes -= log.size;
			}
		}
	}
	for (let i = 0; i < deletes.length; i += 500) await store.batch(deletes.slice(i, i + 500));
	return { bytes, blobs: live.length - evicted, unreferenced, versions, evicted };
}

/**
 * Drops pages' older versions, the oldest in the store first, until `excess` bytes are
 * saved or only newest versions are left: the log whose oldest version is the oldest
 * gives up every version older than the next log's oldest (one at least), and goes back
 * in line.
 */
async function trimOldest(store: StoreReader & StoreWriter, heads: readonly LogHead[], excess: number): Promise<{ saved: number; dropped: number }> {
	const line = heads.filter((head) => head.count > 1).sort((a, b) => a.oldest - b.oldest);
	let saved = 0;
	let dropped = 0;
	while (saved < excess && line.length > 0) {
		const head = line.shift()!;
		const [log] = await store.getVersions([head.key]);
		if (log === undefined) continue;
		const versions = unpackVersions(log);
		const until = line[0]?.oldest ?? Infinity;
		let keep = versions.length - 1;
		while (keep > 1 && versions[keep - 1]!.firstSeen <= until) keep--;
		const kept = packVersions(versions.slice(0, keep), log.latest);
		// Written at once: a log may come up again in this line, and is read again then.
		await store.batch([{ type: 'putVersions', key: head.key, value: kept }]);
		dropped += versions.length - keep;
		saved += head.size - blobSize(kept);
		Object.assign(head, { oldest: kept.oldest, count: kept.count, size: blobSize(kept) });
		if (head.count > 1) line.splice(insertionPoint(line, head.oldest), 0, head);
	}
	return { saved, dropped };
}

/** Where a log whose oldest version is `oldest` goes in a line sorted by oldest. */
function insertionPoint(line: readonly LogHead[], oldest: number): number {
	let low = 0;
	let high = line.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (line[middle]!.oldest <= oldest) low = middle + 1;
		else high = middle;
	}
	return low;
}
