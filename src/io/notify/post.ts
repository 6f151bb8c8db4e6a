import got, { type Method } from 'got';
import { VERSION } from '../../base/util/version.js';
import { safeJson } from '../../base/util/visible.js';
import { withDeadline } from './deadline.js';

/** One request of a chat service: its method (POST unless said), URL, headers and JSON body. */
export interface ServiceRequest {
	method?: Method;
	url: string;
	json: unknown;
	headers?: Record<string, string> | undefined;
	timeoutMs: number;
	/** Aborts the request (a stopped run): its connection is closed and the send rejects at once. */
	signal?: AbortSignal | undefined;
}

/**
 * Sends one JSON request with no retries of its own (the sink retries the whole message)
 * and resolves to the answer's parsed body; a non-2xx answer rejects with its status and
 * the start of its body, which services use to say what was wrong. The request, from the
 * DNS lookup to the answer's last byte, has `timeoutMs`: past it, or when `signal` aborts,
 * the connection is closed and the send rejects (`HOST:PORT did not finish within MS ms`).
 *
 * @example
 * await sendJson({ url: 'https://ntfy.sh/', json: { topic: 'alerts', message: 'hi' }, timeoutMs: 15_000, signal })
 */
export async function sendJson(request: ServiceRequest): Promise<unknown> {
	const { timeoutMs } = request;
	// got's own timeouts name the phase that hung; the deadline around them also ends a body that drips.
	const response = await withDeadline(timeoutMs, new URL(request.url).host, request.signal, (signal) =>
		got(request.url, {
			method: request.method ?? 'POST',
			json: request.json,
			stringifyJson: safeJson,
			headers: { 'user-agent': `revisit/${VERSION}`, ...request.headers },
			timeout: { lookup: timeoutMs, connect: timeoutMs, secureConnect: timeoutMs, response: timeoutMs, request: timeoutMs },
			signal,
			retry: { limit: 0 },
			throwHttpErrors: false,
			followRedirect: false,
		}),
	);
	if (response.statusCode < 200 || response.statusCode >= 300) {
		const said = response.body.replace(/\s+/g, ' ').trim().slice(0, 200);
		throw new Error(`answered ${response.statusCode}${said ? `: ${said}` : ''}`);
	}
	if (!response.body) return undefined;
	try {
		return JSON.parse(response.body) as unknown;
	} catch {
		return response.body;
	}
}

/** `Basic base64(user:password)`. */
export const basicAuth = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
