import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { createHash } from 'node:crypto';
import { RECORD_VERSION, type TextBlob } from './types.js';

/**
 * A text as the store keeps it for `revisit report`: brotli (quality 5, text mode: some
 * 4x smaller on page text at a fraction of quality 11's time), keyed by its hash, so that
 * pages with the same text share one copy.
 *
 * @example
 * const blob = packText('Council news', Date.now()); // { v: 1, z: <Buffer …>, bytes: 12, at: … }
 */
export function packText(text: string, at: number): TextBlob {
	const raw = Buffer.from(text, 'utf8');
	return { v: RECORD_VERSION, z: compressText(raw), bytes: raw.length, at };
}

/** Brotli as kept text uses it (quality 5, text mode). */
export const compressText = (raw: Buffer): Buffer =>
	brotliCompressSync(raw, {
		params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
	});

/** The text of a blob. */
export const unpackText = (blob: TextBlob): string => brotliDecompressSync(blob.z).toString('utf8');

/** A blob's key: the hash of its text (SHA-256 cut to 128 bits, hex, as body hashes are). */
export const textKey = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

/** What a blob costs the total (`--keep-text-total`): its compressed bytes, and a little for its key and head. */
// A version log (VersionLog) is kept the same way: a head and compressed bytes `z`. The helpers below serve both.
export const blobSize = (blob: { z: Buffer }): number => blob.z.length + 64;

/** A blob as JSON (the compressed text in base64), for stores and dumps that hold JSON. */
export const blobToJson = (blob: { z: Buffer }): string => JSON.stringify({ ...blob, z: blob.z.toString('base64') });

/** The blob of `blobToJson`. */
export function blobFromJson<T extends { z: Buffer } = TextBlob>(json: string): T {
	const parsed = JSON.parse(json) as Omit<T, 'z'> & { z: string };
	return { ...parsed, z: Buffer.from(parsed.z, 'base64') } as unknown as T;
}

/** A blob as bytes: its counts as a JSON line, then the compressed text as it is (LevelDB keeps it so, with no base64). */
export const blobToBytes = (blob: { z: Buffer }): Buffer => {
	const { z, ...head } = blob;
	return Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), z]);
};

/** The blob of `blobToBytes`. */
export function blobFromBytes<T extends { z: Buffer } = TextBlob>(bytes: Uint8Array): T {
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const end = buffer.indexOf(0x0a);
	const head = JSON.parse(buffer.subarray(0, end).toString('utf8')) as Omit<T, 'z'>;
	return { ...head, z: Buffer.from(buffer.subarray(end + 1)) } as unknown as T;
}
