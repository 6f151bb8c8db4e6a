import type { Got, Response } from 'got';
import { freshFor } from './fresh-for.js';
import type { ProbeResult } from '../../domain/task/types.js';
import { decodeBody, TOO_LARGE } from './decode.js';
import { assertPublicHost } from './guard.js';
import { isPdf } from '../../domain/content/pdf-text.js';
import { ruleFor } from '../../domain/content/rules.js';
import { keepContent, limitsOf } from './count-body.js';
import { captureOf } from './capture.js';
import { hashBody } from '../../domain/content/hash.js';
import { isSafeValidator } from './validators.js';

/** One attempt's outcome: a result, plus when (ms) a retry would be wanted. */
export interface Attempt {
	result: ProbeResult;
	/** Set for retryable failures (network errors, 5xx, 429). */
	retryAfterHeader?: string | undefined;
	retryable: boolean;
}

const RETRYABLE_NETWORK = new Set([
	'ETIMEDOUT',
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ECONNABORTED',
	'ERR_STREAM_PREMATURE_CLOSE',
]);

export type Method = 'GET' | 'HEAD';

/**
 * What to do with a 2xx body: `hash` it (a sweep), `keep` it as well (a fetch, which
 * writes it out), keep it with the answer's header fields (`hand`: a render's data
 * request, whose answer the browser is handed), or read only the `headers` and drop the
 * connection (a candidates sweep, which never downloads a body).
 */
export type BodyMode = 'hash' | 'keep' | 'hand' | 'headers';

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
	stopIf?: StopIf,
	secretsTo?: string,
	sent?: () => void,
): Promise<Attempt> {
	const started = now();
	const limits = limitsOf(client);
	let tooLarge = false;
	// Only what differs from the client's defaults: got merges every option given, per request.
	// The redirect hook lives on the client too (see client.ts) and records hops in the request's own context.
	const options = { ...(method === 'GET' ? { headers, signal } : { method, headers, signal }), ...(secretsTo ? { context: { firstOrigin: secretsTo } } : {}) };
	try {
		if (limits.denyPrivate) assertPublicHost(url);
		let response: Response<Buffer>;
		let stopped = false;
		if (bodyMode === 'headers' && method === 'GET') {
			response = await headersOnly(client, url, options, sent);
		} else {
			// got's stream interface, not its promise: the same request, options and hooks,
			// without the promise layer's own emitter, cancelable and body parsing per request.
			const read = await readResponse(client, url, options, method === 'GET' ? stopIf : undefined, limits.maxBodyBytes, () => (tooLarge = true), sent);
			response = read.response;
			stopped = read.stopped;
		}
		const hops = (response.request.options.context as { hops?: number[] }).hops;
		const status = response.statusCode;
		// Built field by field rather than spread together: this runs for every request.
		const result: ProbeResult = {
			status,
			finalUrl: response.url,
			permanent: hops !== undefined && hops.every((code) => code === 301 || code === 308),
			// Still encoded (the client does not decompress): these are the bytes on the wire.
			bytes: response.body.length,
			ms: now() - started,
		};
		if (status === 304 || (status >= 200 && status < 300 && (method === 'HEAD' || bodyMode === 'headers' || stopped))) {
			// No body to hash: a 304 never has one, and these requests never read it.
			addValidators(result, response.headers);
			if (status !== 304) result.headersOnly = true;
			else if (limits.capture) result.wire = captureOf(response, method, now());
			return { retryable: false, result };
		}
		if (status >= 200 && status < 300) {
			const body = await decodeBody(response.body, header(response.headers['content-encoding']), limits.maxBodyBytes);
			result.ms = now() - started;
			addValidators(result, response.headers);
			result.hash = hashBody(body);
			if (limits.capture) result.wire = captureOf(response, method, now());
			const type = header(response.headers['content-type']);
			// A PDF counts by its text, read in a child process: the event loop only waits for it.
			const pdf = isPdf(type, body) ? await limits.readPdf(body) : undefined;
			keepContent(result, ruleFor(limits.rules, url), body, type, limits, url, pdf);
			if (bodyMode === 'keep' || bodyMode === 'hand') {
				result.body = body;
				result.contentType = header(response.headers['content-type']);
				if (bodyMode === 'hand') result.responseHeaders = flatHeaders(response.headers);
			}
			return { retryable: false, result };
		}
		if (status === 404 || status === 410) return { retryable: false, result };
		result.error = { code: `HTTP_${status}`, message: `server answered ${status}` };
		return { retryable: status === 429 || status >= 500, retryAfterHeader: header(response.headers['retry-after']), result };
	} catch (error) {
		if (signal.aborted) throw error;
		const raw = (error as { code?: string }).code ?? 'EREQUEST';
		const code = tooLarge || raw === TOO_LARGE ? 'BODY_TOO_LARGE' : raw;
		if (code === 'BODY_TOO_LARGE') {
			const message = `body is larger than ${limits.maxBodyBytes} bytes (--max-body)`;
			return { retryable: false, result: { status: 0, finalUrl: url, permanent: false, bytes: 0, ms: now() - started, error: { code, message } } };
		}
		return {
			retryable: RETRYABLE_NETWORK.has(code),
			result: { status: 0, finalUrl: url, permanent: false, bytes: 0, ms: now() - started, error: { code, message: (error as Error).message } },
		};
	}
}

/** A GET whose connection is dropped once the headers are in: status and validators, no body. */
async function headersOnly(client: Got, url: string, options: object, sent?: () => void): Promise<Response<Buffer>> {
	const stream = client.stream(url, options);
	onSent(stream, sent);
	// Destroying the stream below may make it emit an error nobody needs.
	stream.on('error', () => {});
	const response = await new Promise<Response>((resolve, reject) => {
		stream.once('response', resolve);
		stream.once('error', reject);
	});
	stream.destroy();
	return Object.assign(response, { body: Buffer.alloc(0) }) as Response<Buffer>;
}

/**
 * Calls `sent` once the first request is handed to the kernel (its ClientRequest's
 * `finish`): what the origin sees as the request's time, for the limiter's pacing.
 */
function onSent(stream: NodeJS.EventEmitter, sent: (() => void) | undefined): void {
	if (sent) stream.once('request', (request: NodeJS.EventEmitter) => request.once('finish', sent));
}

/** Decides, from a response's status and headers, that its body is not worth reading. */
export type StopIf = (status: number, headers: Record<string, string | string[] | undefined>) => boolean;

/**
 * Sends the request and reads the answer's body, as received (the client does not
 * decompress), into `response.body`; past `maxBodyBytes` on the wire it calls
 * `onTooLarge` and fails. With `stopIf`, a body it says is not worth reading once the
 * headers are in is not read: the connection is dropped, as for a headers-only GET.
 */
function readResponse(
	client: Got,
	url: string,
	options: object,
	stopIf: StopIf | undefined,
	maxBodyBytes: number,
	onTooLarge: () => void,
	sent?: () => void,
): Promise<{ response: Response<Buffer>; stopped: boolean }> {
	return new Promise((resolve, reject) => {
		const stream = client.stream(url, options);
		onSent(stream, sent);
		// Stays on once settled: an error after the end (or after a drop) has no one to tell.
		stream.on('error', reject);
		stream.once('response', (response: Response) => {
			if (stopIf?.(response.statusCode, response.headers)) {
				stream.destroy();
				resolve({ response: Object.assign(response, { body: Buffer.alloc(0) }) as Response<Buffer>, stopped: true });
				return;
			}
			const chunks: Buffer[] = [];
			let size = 0;
			stream.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (size > maxBodyBytes) {
					onTooLarge();
					stream.destroy();
					reject(new Error(`body is larger than ${maxBodyBytes} bytes`));
					return;
				}
				chunks.push(chunk);
			});
			stream.once('end', () => {
				const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
				resolve({ response: Object.assign(response, { body }) as Response<Buffer>, stopped: false });
			});
		});
	});
}

/**
 * Adds the response's validators, exactly as sent, except that one which could not be
 * safely echoed in a request header (controls, CR/LF, over 1 KiB) is dropped and
 * flagged: the hash decides for that URL.
 */
function addValidators(result: ProbeResult, headers: Record<string, string | string[] | undefined>): void {
	const fresh = freshFor(headers);
	if (fresh !== undefined) result.freshMs = fresh;
	const etag = header(headers.etag);
	const lastModified = header(headers['last-modified']);
	if (etag !== undefined) {
		if (isSafeValidator(etag)) result.etag = etag;
		else result.unsafeValidator = true;
	}
	if (lastModified !== undefined) {
		if (isSafeValidator(lastModified)) result.lastModified = lastModified;
		else result.unsafeValidator = true;
	}
}

function header(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

/**
 * A response's header fields as one string each (repeated ones joined with ", "), without
 * Set-Cookie, whose values cannot be joined (the run's cookie jar has taken them).
 */
function flatHeaders(headers: Response['headers']): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined || name === 'set-cookie') continue;
		flat[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}
