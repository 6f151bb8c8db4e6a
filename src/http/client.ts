import got, { type Got } from 'got';
import { descriptorBudget, openFileLimit } from '../util/descriptors.js';
import { compileRules, type RuleSpec } from '../content/rules.js';
import { assertPublicHost, denyPrivateLookup } from './guard.js';
import { createSocketPool } from './sockets.js';

/** Sockets open at once when the caller names no figure: a run passes its own (see pipelines/resources.ts). */
export const DEFAULT_MAX_SOCKETS = 32;

/**
 * How long an idle keep-alive socket is kept: under the 5 s many servers (Node's among
 * them) allow, so that we close it rather than reuse one the server is closing.
 */
export const IDLE_SOCKET_MS = 4000;

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
	/** Keep each answer's status line, headers and body as received (WARC output). */
	capture?: boolean | undefined;
	/** Content rules (plain data): what part of a 2xx body counts; compiled here, once per client. */
	rules?: readonly RuleSpec[] | undefined;
	/** Keep each 2xx body's counted text with its content hash (learning noise). */
	keepText?: boolean | undefined;
	/**
	 * Sockets open at once, idle keep-alive ones included: past it, the least recently
	 * used idle one is closed first. Default DEFAULT_MAX_SOCKETS.
	 */
	maxSockets?: number | undefined;
	/**
	 * Past this many, all in use, a request waits for a socket to close. Default: what the
	 * process's descriptor limit leaves after the store's share (util/descriptors.ts).
	 */
	hardMaxSockets?: number | undefined;
}

/**
 * A got instance for probing: keep-alive agents within one socket budget (see
 * http/sockets.ts), a pinned Accept-Encoding, no throwing on HTTP status (a 304 or 404 is
 * an answer, not an exception) and no retries (the probe retries outside the concurrency
 * slots, see stages/probe.ts).
 *
 * @example
 * const client = createHttpClient({ userAgent: 'revisit/0.1', timeoutMs: 15000, acceptEncoding: 'gzip', maxSockets: 28 });
 */
export function createHttpClient(options: HttpClientOptions): { got: Got; close(): void } {
	const hardMaxSockets = options.hardMaxSockets ?? descriptorBudget(openFileLimit()).sockets;
	const pool = createSocketPool({
		// Never more than the hard cap: that is what keeps the store's descriptors free.
		maxSockets: Math.min(options.maxSockets ?? DEFAULT_MAX_SOCKETS, hardMaxSockets),
		hardMaxSockets,
		idleMs: IDLE_SOCKET_MS,
	});
	const agent = { http: pool.http, https: pool.https };
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
		context: { maxBodyBytes: options.maxBodyBytes ?? Number.POSITIVE_INFINITY, denyPrivate: options.denyPrivate ?? false, capture: options.capture ?? false, rules: compileRules(options.rules ?? []), keepText: options.keepText ?? false },
		hooks: { beforeRedirect: [checkRedirect(options.denyPrivate ?? false)] },
		https: { rejectUnauthorized: !options.insecure },
		...(options.denyPrivate ? { dnsLookup: denyPrivateLookup() } : {}),
	});
	return {
		got: instance,
		close() {
			pool.destroy();
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
