import { promisify } from 'node:util';
import zlib from 'node:zlib';

const unzip = promisify(zlib.unzip);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);
const zstdDecompress = (zlib as { zstdDecompress?: typeof zlib.unzip }).zstdDecompress;
type Decoder = (body: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>;
const DECODERS: Record<string, Decoder> = {
	gzip: unzip,
	'x-gzip': unzip,
	// `deflate` is meant to be zlib-wrapped (RFC 1950 header: CM 8, check bits), but many servers send raw deflate.
	deflate: (body, options) => ((body[0]! & 0x0f) === 8 && ((body[0]! << 8) | (body[1] ?? 0)) % 31 === 0 ? unzip(body, options) : inflateRaw(body, options)),
	br: brotliDecompress,
	...(zstdDecompress ? { zstd: promisify(zstdDecompress) as Decoder } : {}),
};

/** zlib's own code when a decoded body would pass `maxOutputLength`. */
export const TOO_LARGE = 'ERR_BUFFER_TOO_LARGE';

type SyncDecoder = (body: Buffer, options: { maxOutputLength: number }) => Buffer;
const zstdDecompressSync = (zlib as { zstdDecompressSync?: SyncDecoder }).zstdDecompressSync;
const SYNC_DECODERS: Record<string, SyncDecoder> = {
	gzip: zlib.unzipSync,
	'x-gzip': zlib.unzipSync,
	deflate: (body, options) =>
		(body[0]! & 0x0f) === 8 && ((body[0]! << 8) | (body[1] ?? 0)) % 31 === 0 ? zlib.unzipSync(body, options) : zlib.inflateRawSync(body, options),
	br: zlib.brotliDecompressSync,
	...(zstdDecompressSync ? { zstd: zstdDecompressSync } : {}),
};
/**
 * A body this small (as received) is decoded on the main thread, where decoding a typical
 * page takes a few µs against ~80 µs of CPU for a trip through the thread pool; at most
 * SYNC_OUTPUT bytes come out that way, so a bomb can't hold the event loop up for long.
 */
const SYNC_INPUT = 64 * 1024;
const SYNC_OUTPUT = 1024 * 1024;

async function decodeOne(coding: string, body: Buffer, maxBytes: number): Promise<Buffer> {
	if (body.length <= SYNC_INPUT) {
		const cap = Math.min(maxBytes, SYNC_OUTPUT);
		try {
			return SYNC_DECODERS[coding]!(body, { maxOutputLength: cap });
		} catch (error) {
			// Larger than the main thread's share but maybe within the limit: the thread pool decodes it.
			if (!((error as { code?: string }).code === TOO_LARGE && cap < maxBytes)) throw error;
		}
	}
	return DECODERS[coding]!(body, { maxOutputLength: maxBytes });
}

/**
 * The body with its content codings undone (last applied, first undone), so the hash
 * is of the representation whatever encoding carried it. A coding this Node can't
 * decode leaves the bytes as they came. Decoding stops as soon as the output would pass
 * `maxBytes` (zlib's `maxOutputLength`), so a gzip bomb costs no more than that: it
 * rejects with code ERR_BUFFER_TOO_LARGE.
 *
 * @example
 * await decodeBody(gzipSync('hi'), 'gzip') // <Buffer 68 69>
 */
export async function decodeBody(body: Buffer, contentEncoding: string | undefined, maxBytes = 2 ** 31 - 1): Promise<Buffer> {
	const codings = (contentEncoding ?? '')
		.split(',')
		.map((coding) => coding.trim().toLowerCase())
		.filter((coding) => coding !== '' && coding !== 'identity');
	if (body.length === 0 || codings.some((coding) => DECODERS[coding] === undefined)) return body;
	let decoded = body;
	for (const coding of codings.reverse()) decoded = await decodeOne(coding, decoded, maxBytes);
	return decoded;
}
