import type { Got } from 'got';
import type { UrlRecord } from '../store/types.js';
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

/**
 * Builds the conditional headers for a stored record: both validators when both are
 * stored, each echoed exactly as the server sent it.
 *
 * @example
 * conditionalHeaders({ etag: 'W/"x"', ... }) // { 'if-none-match': 'W/"x"' }
 */
export function conditionalHeaders(record: UrlRecord | null | undefined): Record<string, string> {
	const headers: Record<string, string> = {};
	if (record?.etag !== undefined) headers['if-none-match'] = record.etag;
	if (record?.lastModified !== undefined) headers['if-modified-since'] = record.lastModified;
	return headers;
}

/**
 * Sends one GET and describes the answer. Network failures become a result with an
 * `error`, never a rejection, except for an abort (the caller unsubscribed).
 *
 * @example
 * const { result } = await attemptGet(client, 'https://example.org/', { 'if-none-match': '"a"' }, signal, Date.now);
 */
export async function attemptGet(
	client: Got,
	url: string,
	headers: Record<string, string>,
	signal: AbortSignal,
	now: () => number,
): Promise<Attempt> {
	const started = now();
	const hops: number[] = [];
	try {
		const response = await client.get(url, {
			headers,
			signal,
			responseType: 'buffer',
			hooks: { beforeRedirect: [(_options, redirect) => void hops.push(redirect.statusCode ?? 0)] },
		});
		const ms = now() - started;
		const status = response.statusCode;
		const base = {
			status,
			finalUrl: response.url,
			permanent: hops.length > 0 && hops.every((code) => code === 301 || code === 308),
			bytes: response.request.downloadProgress.transferred,
			ms,
		};
		if (status === 304) {
			// A 304 has no body: never hash it.
			return { retryable: false, result: { ...base, ...validators(response.headers) } };
		}
		if (status >= 200 && status < 300) {
			return { retryable: false, result: { ...base, ...validators(response.headers), hash: hashBody(response.body) } };
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
