import type { Got, Response } from 'got';
import type { ProbeResult } from '../types.js';
import { decodeBody } from './decode.js';
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
 * What to do with a 2xx body: `hash` it (a sweep), `keep` it as well (a fetch, which
 * writes it out), or read only the `headers` and drop the connection (a candidates
 * sweep, which never downloads a body).
 */
export type BodyMode = 'hash' | 'keep' | 'headers';

/**
 * Sends one GET or HEAD and describes the answer. Network failures become a result
 * with an `error`, never a rejection, except for an abort (the caller unsubscribed).
 * A 304, a HEAD and a headers-only GET have no body and so no hash.
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
	bodyMode: BodyMode = 'hash',
): Promise<Attempt> {
	const started = now();
	const hops: number[] = [];
	const options = {
		method,
		headers,
		signal,
		hooks: { beforeRedirect: [(_options: unknown, redirect: { statusCode?: number }) => void hops.push(redirect.statusCode ?? 0)] },
	};
	try {
		const response: Response<Buffer> =
			bodyMode === 'headers' && method === 'GET' ? await headersOnly(client, url, options) : await client(url, { ...options, responseType: 'buffer' });
		const status = response.statusCode;
		const base = {
			status,
			finalUrl: response.url,
			permanent: hops.length > 0 && hops.every((code) => code === 301 || code === 308),
			// Still encoded (the client does not decompress): these are the bytes on the wire.
			bytes: response.body.length,
			ms: now() - started,
		};
		if (status === 304 || (status >= 200 && status < 300 && (method === 'HEAD' || bodyMode === 'headers'))) {
			// No body to hash: a 304 never has one, and these requests never read it.
			return { retryable: false, result: { ...base, ...validators(response.headers), ...(status === 304 ? {} : { headersOnly: true }) } };
		}
		if (status >= 200 && status < 300) {
			const body = await decodeBody(response.body, header(response.headers['content-encoding']));
			const kept = bodyMode === 'keep' ? { body, contentType: header(response.headers['content-type']) } : {};
			return { retryable: false, result: { ...base, ms: now() - started, ...validators(response.headers), hash: hashBody(body), ...kept } };
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
			result: { status: 0, finalUrl: url, permanent: false, bytes: 0, ms: now() - started, error: { code, message: (error as Error).message } },
		};
	}
}

/** A GET whose connection is dropped once the headers are in: status and validators, no body. */
async function headersOnly(client: Got, url: string, options: object): Promise<Response<Buffer>> {
	const stream = client.stream(url, options);
	// Destroying the stream below may make it emit an error nobody needs.
	stream.on('error', () => {});
	const response = await new Promise<Response>((resolve, reject) => {
		stream.once('response', resolve);
		stream.once('error', reject);
	});
	stream.destroy();
	return Object.assign(response, { body: Buffer.alloc(0) }) as Response<Buffer>;
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
