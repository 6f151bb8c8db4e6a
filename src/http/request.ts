import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Got } from 'got';
import type { ProbeResult } from '../types.js';
import { hashBody } from './hash.js';

/** One attempt's outcome: a result, plus when (ms) a retry would be wanted. */
export interface Attempt {
	result: ProbeResult;
	/** Set for retryable failures (network errors, 5xx, 429). */
	retryAfterHeader?: string | undefined;
	retryable: boolean;
}

const RETRYABLE_NETWORK = new Set([
	'ETIMEDOUT', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE',
]);

export type Method = 'GET' | 'HEAD';

/**
 * Sends one GET or HEAD and describes the answer. Network failures become a result
 * with an `error`, never a rejection, except for an abort (the caller unsubscribed).
 * A HEAD's 2xx has no body and so no hash.
 *
 * @example
 * const { result } = await attemptRequest(client, 'GET', 'https://example.org/', { 'if-none-match': '"a"' }, signal, Date.now);
 */
export async function attemptRequest(
	client: Got,
	method: Method,
	url: string,
	headers: Record<string, string>,
	signal: AbortSignal,
	now: () => number,
): Promise<Attempt> {
	const started = now();
	const hops: number[] = [];
	try {
		const response = await client(url, {
			method,
			headers,
			signal,
			responseType: 'buffer',
			hooks: { beforeRedirect: [(_options, redirect) => void hops.push(redirect.statusCode ?? 0)] },
		});
		const status = response.statusCode;
		const base = {
			status,
			finalUrl: response.url,
			permanent: hops.length > 0 && hops.every((code) => code === 301 || code === 308),
			// Still encoded (the client does not decompress): these are the bytes on the wire.
			bytes: response.body.length,
			ms: now() - started,
		};
		if (status === 304) {
			// A 304 has no body: never hash it.
			return { retryable: false, result: { ...base, ...validators(response.headers) } };
		}
		if (status >= 200 && status < 300 && method === 'HEAD') {
			return { retryable: false, result: { ...base, ...validators(response.headers) } };
		}
		if (status >= 200 && status < 300) {
			const body = await decodeBody(response.body, header(response.headers['content-encoding']));
			return { retryable: false, result: { ...base, ms: now() - started, ...validators(response.headers), hash: hashBody(body) } };
		}
		if (status === 404 || status === 410) return { retryable: false, result: base };
		const retryable = status === 429 || status >= 500;
		return {
			retryable,
			retryAfterHeader: header(response.headers['retry-after']),
			result: { ...base, error: { code: `HTTP_${status}`, message: `server answered ${status}` } },
		};
	} catch (error) {
		if (signal.aborted) throw error;
		const code = (error as { code?: string }).code ?? 'EREQUEST';
		return {
			retryable: RETRYABLE_NETWORK.has(code),
			result: {
				status: 0,
				finalUrl: url,
				permanent: false,
				bytes: 0,
				ms: now() - started,
				error: { code, message: (error as Error).message },
			},
		};
	}
}

function validators(headers: Record<string, string | string[] | undefined>): { etag?: string; lastModified?: string } {
	const out: { etag?: string; lastModified?: string } = {};
	const etag = header(headers.etag);
	const lastModified = header(headers['last-modified']);
	if (etag !== undefined) out.etag = etag;
	if (lastModified !== undefined) out.lastModified = lastModified;
	return out;
}

function header(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

const unzip = promisify(zlib.unzip);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);
const zstdDecompress = (zlib as { zstdDecompress?: typeof zlib.unzip }).zstdDecompress;
const DECODERS: Record<string, (body: Buffer) => Promise<Buffer>> = {
	gzip: unzip,
	'x-gzip': unzip,
	// `deflate` is meant to be zlib-wrapped (RFC 1950 header: CM 8, check bits), but many servers send raw deflate.
	deflate: (body) => ((body[0]! & 0x0f) === 8 && ((body[0]! << 8) | (body[1] ?? 0)) % 31 === 0 ? unzip(body) : inflateRaw(body)),
	br: brotliDecompress,
	...(zstdDecompress ? { zstd: promisify(zstdDecompress) } : {}),
};

/**
 * The body with its content codings undone (last applied, first undone), so the hash
 * is of the representation whatever encoding carried it. A coding this Node can't
 * decode leaves the bytes as they came.
 *
 * @example
 * await decodeBody(gzipSync('hi'), 'gzip') // <Buffer 68 69>
 */
export async function decodeBody(body: Buffer, contentEncoding: string | undefined): Promise<Buffer> {
	const codings = (contentEncoding ?? '')
		.split(',')
		.map((coding) => coding.trim().toLowerCase())
		.filter((coding) => coding !== '' && coding !== 'identity');
	if (body.length === 0 || codings.some((coding) => DECODERS[coding] === undefined)) return body;
	let decoded = body;
	for (const coding of codings.reverse()) decoded = await DECODERS[coding]!(decoded);
	return decoded;
}
