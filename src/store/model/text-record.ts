import type { Product } from './product.js';

/**
 * Counted text kept for the next diff: the key of its blob (the text's hash), and whether
 * it was cut at the per-page cap. A record written before blobs holds the text inline
 * (`text`); it is read, and replaced by a blob at the page's next change.
 */
export interface KeptText {
	hash?: string;
	text?: string;
	cut?: boolean;
}

/**
 * One kept text, stored once under its hash however many pages have it (`revisit report`
 * diffs against it): compressed, with when a page last took it. Blobs no record points to
 * any more are collected when the total passes its bound, and by `revisit prune` (store/text-gc.ts).
 */
export interface TextBlob {
	v: number;
	/** The text, brotli-compressed (store/model/text-blob.ts). */
	z: Buffer;
	/** Its UTF-8 size before compression. */
	bytes: number;
	/** When a page last changed to (or was first seen with) this text, epoch ms: past the total, the least recent go first. */
	at: number;
}

/**
 * A page's versions of its counted text (`--keep-versions`), kept under its URL: the
 * newest is the text blob named `latest` (shared with the record, or with other pages);
 * each older one is a reverse delta against the version after it (store/model/version-log.ts).
 * The versions are compressed together (`z`), one column a field: a page's versions
 * share most of their words and numbers.
 * The head (all but `z`) is what collection reads without unpacking.
 */
export interface VersionLog {
	v: number;
	/** The versions, newest first, as brotli-compressed JSON (store/model/version-log.ts's columns). */
	z: Buffer;
	/** Their JSON's UTF-8 size before compression. */
	bytes: number;
	/** When the newest version was first seen (epoch ms). */
	at: number;
	/** The newest version's text hash: its blob is kept while this log points to it. */
	latest: string;
	/** When the oldest version kept was first seen: past the store's total, the oldest versions go first. */
	oldest: number;
	/** Versions kept (the newest included). */
	count: number;
}

/**
 * One version of a page's counted text as its log keeps it. The newest has no `delta`:
 * its text is the blob `VersionLog.latest`.
 */
export interface StoredVersion {
	/** 1 for the first version seen; stays when older ones are evicted. */
	n: number;
	firstSeen: number;
	/** Older versions: the last check before the next version was seen. The newest's is its record's `lastChecked`. */
	lastConfirmed?: number;
	/** The verdict's reason when it was seen (`new`, `new-body`, `audit`, `price`, …). */
	reason: string;
	/** Words added and removed against the version before it (0 for the first). */
	added: number;
	removed: number;
	etag?: string;
	lastModified?: string;
	/** The offer counted (`--product`). */
	product?: Product;
	/** The text's UTF-8 size. */
	bytes: number;
	/** Cut at the per-page cap (`--keep-text`). */
	cut?: boolean;
	/** Older versions: the text made from the next version's: `[from, length]` copies a slice of it (UTF-16 offsets), a string is inserted. */
	delta?: Array<string | [number, number]>;
	/** Older versions whose text is that of a newer version (`n`): stored once. */
	same?: number;
	/** A change whose text is the same as the version before's, in words: where its bytes moved (the verdict's `note`). */
	note?: string;
	/** The change was held back by the run's `--when` (its verdict `unmet`): recorded, never reported. */
	held?: boolean;
}
