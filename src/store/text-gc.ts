import { blobSize } from './text-blob.js';
import type { StoreOperation, ValidatorStore } from './types.js';

/** What a collection of kept text found and did. */
export interface TextCollection {
	/** Bytes of the blobs left (what `--keep-text-total` counts), and how many. */
	bytes: number;
	blobs: number;
	/** Blobs deleted because no record pointed to them any more. */
	unreferenced: number;
	/** Blobs deleted, least recently taken first, to bring the total under the bound. */
	evicted: number;
}

/**
 * Collects the store's kept text: deletes the blobs no URL record points to (pages that
 * changed to another text, were pruned, or went), then, while the rest is over
 * `maxBytes`, the least recently taken (the texts of the pages that changed longest ago),
 * down to `targetBytes` (default nine tenths of the bound, so that the next runs have room
 * before collecting again). Reads every record and every blob once: the end of a sweep
 * runs it only when its total passes the bound, and `revisit prune` always.
 *
 * @example
 * const { bytes } = await collectTexts(store, { maxBytes: 256 << 20 });
 */
export async function collectTexts(store: ValidatorStore, options: { maxBytes: number; targetBytes?: number }): Promise<TextCollection> {
	const referenced = new Set<string>();
	for await (const [, record] of store.entries()) if (record.text?.hash !== undefined) referenced.add(record.text.hash);
	const live: Array<{ key: string; at: number; size: number }> = [];
	const deletes: string[] = [];
	let bytes = 0;
	// Deleted after the iteration: a Redis iteration pages through the index, which deleting under it would shift.
	for await (const [key, blob] of store.textEntries()) {
		if (!referenced.has(key)) deletes.push(key);
		else {
			live.push({ key, at: blob.at, size: blobSize(blob) });
			bytes += blobSize(blob);
		}
	}
	const unreferenced = deletes.length;
	let evicted = 0;
	if (bytes > options.maxBytes) {
		const target = options.targetBytes ?? Math.floor(options.maxBytes * 0.9);
		live.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1));
		for (const blob of live) {
			if (bytes <= target) break;
			deletes.push(blob.key);
			bytes -= blob.size;
			evicted++;
		}
	}
	for (let i = 0; i < deletes.length; i += 500) {
		await store.batch(deletes.slice(i, i + 500).map((key): StoreOperation => ({ type: 'delText', key })));
	}
	return { bytes, blobs: live.length - evicted, unreferenced, evicted };
}
