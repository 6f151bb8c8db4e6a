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
	/** The text, brotli-compressed (store/text-blob.ts). */
	z: Buffer;
	/** Its UTF-8 size before compression. */
	bytes: number;
	/** When a page last changed to (or was first seen with) this text, epoch ms: past the total, the least recent go first. */
	at: number;
}
