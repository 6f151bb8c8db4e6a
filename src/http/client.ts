import http from 'node:http';
import https from 'node:https';
import got, { type Got } from 'got';
import { assertPublicHost, denyPrivateLookup } from './guard.js';

export interface HttpClientOptions {
	userAgent: string;
	/** Cap on one attempt's total time, in ms. */
	timeoutMs: number;
	/** Sent on every request of the run, so ETags derived from compressed bytes stay comparable. */
	acceptEncoding: string;
	/** Largest body, on the wire or decoded. */
	maxBodyBytes?: number | undefined;
	/** Refuse loopback, link-local and private addresses, checked after DNS resolution. */
	denyPrivate?: boolean | undefined;
	/** Accept any TLS certificate. */
	insecure?: boolean | undefined;
}

/**
 * A got instance for probing: keep-alive agents, a pinned Accept-Encoding, no
 * throwing on HTTP status (a 304 or 404 is an answer, not an exception) and no retries
 * (the probe retries outside the concurrency slots, see stages/probe.ts).
 *
 * @example
 * const client = createHttpClient({ userAgent: 'revisit/0.1', timeoutMs: 15000, acceptEncoding: 'gzip' });
 */
export function createHttpClient(options: HttpClientOptions): { got: Got; close(): void } {
	const agent = {
		http: new http.Agent({ keepAlive: true, maxFreeSockets: 64 }),
		https: new https.Agent({ keepAlive: true, maxFreeSockets: 64 }),
	};
	const instance = got.extend({
		agent,
		headers: {
			'user-agent': options.userAgent,
			'accept-encoding': options.acceptEncoding,
		},
		// Bodies are decoded in request.ts, so the wire size of each body stays known.
		decompress: false,
		throwHttpErrors: false,
		followRedirect: true,
		maxRedirects: 5,
		retry: { limit: 0 },
		timeout: { request: options.timeoutMs },
		responseType: 'buffer',
		cache: false,
		context: { maxBodyBytes: options.maxBodyBytes ?? Number.POSITIVE_INFINITY, denyPrivate: options.denyPrivate ?? false },
		hooks: { beforeRedirect: [checkRedirect(options.denyPrivate ?? false)] },
		https: { rejectUnauthorized: !options.insecure },
		...(options.denyPrivate ? { dnsLookup: denyPrivateLookup() } : {}),
	});
	return {
		got: instance,
		close() {
			agent.http.destroy();
			agent.https.destroy();
		},
	};
}

/**
 * Records each hop's status in the request's `context.hops` (to tell permanent chains)
 * and refuses redirects to private addresses when asked.
 */
function checkRedirect(denyPrivate: boolean) {
	return (next: { url?: URL | string | undefined; context: Record<string, unknown> }, redirect: { statusCode?: number }): void => {
		// Created at the first hop: a request that is not redirected pays nothing. Each hop's
		// options copy the context shallowly, so later hops push to the same array.
		((next.context.hops as number[] | undefined) ??= []).push(redirect.statusCode ?? 0);
		// A redirect to another scheme never gets here: got refuses it first (ERR_UNSUPPORTED_PROTOCOL).
		if (denyPrivate) assertPublicHost(String(next.url));
	};
}
