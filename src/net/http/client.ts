import http from 'node:http';
import https from 'node:https';
import got, { type Got, type BeforeRequestHook } from 'got';
import type { CookieJar } from 'tough-cookie';
import { descriptorBudget, openFileLimit } from '../../base/util/descriptors.js';
import { compileRules, type RuleSpec } from '../../domain/content/rules.js';
import type { PdfOptions } from '../../domain/content/pdf-text.js';
import { assertPublicHost, denyPrivateLookup } from './guard.js';
import { createSocketPool, type SocketPool } from './sockets.js';
import { leanNativeOptions } from './native-options.js';
import { compileHeaders, type HeaderRule } from './headers.js';
import { proxyChooser, type ProxySettings } from './proxy.js';

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
	/** Keep each 2xx body's counted text, cut at this many bytes, as `counted` (`--keep-text`); 0: not. */
	keepCounted?: number | undefined;
	/** Keep an HTML page's markup rather than its visible text, where no rule applies (`--diff-of source`). */
	keepSource?: boolean | undefined;
	/** How a PDF's text is read (the pdftotext program, size and time limits); the defaults of domain/content/pdf-text.ts when absent. */
	pdf?: PdfOptions | undefined;
	/**
	 * Sockets open at once, idle keep-alive ones included: past it, the least recently
	 * used idle one is closed first. Default DEFAULT_MAX_SOCKETS.
	 */
	maxSockets?: number | undefined;
	/**
	 * Past this many, all in use, a request waits for a socket to close. Default: what the
	 * process's descriptor limit leaves after the store's share (base/util/descriptors.ts).
	 */
	hardMaxSockets?: number | undefined;
	/** Headers the user added (`-H`, a pipeline file's `headers`), each for every request or for the URLs it matches. */
	headers?: readonly HeaderRule[] | undefined;
	/** The proxies to send through (`--proxy`, the environment's HTTP_PROXY and kin); none: direct. */
	proxy?: ProxySettings | undefined;
}

/** What a client takes that is not plain data, so only in the process that owns it. */
export interface HttpClientExtras {
	/** Cookies to send, and where those the servers set are kept (`--cookies`, `--cookie-jar`). */
	cookieJar?: CookieJar | undefined;
}

/**
 * A got instance for probing: keep-alive agents within one socket budget (see
 * net/http/sockets.ts), a pinned Accept-Encoding, no throwing on HTTP status (a 304 or 404 is
 * an answer, not an exception) and no retries (the probe retries outside the concurrency
 * slots, see stages/probe.ts).
 *
 * @example
 * const client = createHttpClient({ userAgent: 'revisit/0.1', timeoutMs: 15000, acceptEncoding: 'gzip', maxSockets: 28 });
 */
export function createHttpClient(options: HttpClientOptions, extras: HttpClientExtras = {}): { got: Got; close(): void; resize(maxSockets: number): void } {
	const hardMaxSockets = options.hardMaxSockets ?? descriptorBudget(openFileLimit()).sockets;
	const pool = createSocketPool({
		// Never more than the hard cap: that is what keeps the store's descriptors free.
		maxSockets: Math.min(options.maxSockets ?? DEFAULT_MAX_SOCKETS, hardMaxSockets),
		hardMaxSockets,
		idleMs: IDLE_SOCKET_MS,
	});
	const agent = { http: pool.http, https: pool.https };
	const headers = compileHeaders(options.headers ?? []);
	const proxied = proxyRequest(pool, options.proxy);
	const instance = got.extend({
		agent,
		...(proxied ? { request: proxied } : {}),
		...(extras.cookieJar ? { cookieJar: extras.cookieJar } : {}),
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
		context: {
			maxBodyBytes: options.maxBodyBytes ?? Number.POSITIVE_INFINITY,
			denyPrivate: options.denyPrivate ?? false,
			capture: options.capture ?? false,
			rules: compileRules(options.rules ?? []),
			keepText: options.keepText ?? false,
			keepCounted: options.keepCounted ?? 0,
			keepSource: options.keepSource ?? false,
			pdf: options.pdf ?? {},
			secretHeaders: headers.secretNames,
		},
		hooks: {
			init: [leanNativeOptions],
			beforeRedirect: [checkRedirect(options.denyPrivate ?? false)],
			...(headers.names.length > 0 ? { beforeRequest: [addHeaders(headers)] } : {}),
		},
		https: { rejectUnauthorized: !options.insecure },
		...(options.denyPrivate ? { dnsLookup: denyPrivateLookup() } : {}),
	});
	return {
		got: instance,
		close() {
			pool.destroy();
		},
		/** Keep-alive sockets kept open from now on (SocketPool.resize), never past the hard cap. */
		resize(maxSockets) {
			pool.resize(maxSockets);
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

/** Names got sets itself per hop (from the URL's credentials and the cookie jar): a rule overrides them, never restores them. */
const SET_PER_HOP = new Set(['authorization', 'cookie']);

/**
 * Puts the user's headers on each hop of a request: those whose scope matches the hop's
 * URL, secret ones only on the origin first asked for. A hop first gets back what the
 * request had before any rule (the client's User-Agent, say), so that a header scoped to
 * one origin does not ride a redirect to another.
 */
function addHeaders(compiled: ReturnType<typeof compileHeaders>) {
	return (options: Parameters<BeforeRequestHook>[0]): void => {
		const url = options.url as URL;
		const context = options.context as { firstOrigin?: string; baseHeaders?: Record<string, string | string[] | undefined> };
		const sent = options.headers;
		if (context.baseHeaders === undefined) {
			// A request may name the origin its secrets belong to (a rendered page's data request: the page's).
			context.firstOrigin ??= url.origin;
			context.baseHeaders = Object.fromEntries(compiled.names.map((name) => [name, sent[name]]));
		}
		for (const name of compiled.names) {
			if (SET_PER_HOP.has(name)) continue;
			const base = context.baseHeaders?.[name];
			if (base === undefined) delete sent[name];
			else sent[name] = base;
		}
		Object.assign(sent, compiled.for(url, url.origin === context.firstOrigin));
	};
}

type RequestFunction = (url: URL, options: https.RequestOptions, callback?: (response: http.IncomingMessage) => void) => http.ClientRequest | undefined;

/**
 * got's `request` function when a proxy is set: an https:// URL goes through a CONNECT
 * tunnel (hpagent's agent, within the pool's socket budget); an http:// URL is sent to the
 * proxy in absolute form, as curl does, so the proxy sees (and logs) each request; a URL
 * that NO_PROXY covers goes direct. The proxy's credentials go in Proxy-Authorization.
 */
function proxyRequest(pool: SocketPool, settings: ProxySettings | undefined): RequestFunction | undefined {
	if (!settings || (settings.http === undefined && settings.https === undefined)) return undefined;
	const choose = proxyChooser(settings);
	return (url, requestOptions, callback) => {
		const proxy = choose(url);
		// Nothing returned: got sends it itself, direct, with the options as they are now.
		if (!proxy) return undefined;
		if (url.protocol === 'https:') {
			requestOptions.agent = pool.tunnel(proxy);
			return undefined;
		}
		const target = new URL(url.href);
		target.username = '';
		target.password = '';
		target.hash = '';
		const headers: http.OutgoingHttpHeaders = { ...(requestOptions.headers as http.OutgoingHttpHeaders), host: url.host };
		if (proxy.username || proxy.password) {
			headers['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
		}
		const at = new URL(proxy.origin);
		// The proxy's address is the user's choice: --deny-private's lookup does not apply to it.
		const { lookup: _lookup, ...rest } = requestOptions;
		const forward = { ...rest, path: target.href, headers, agent: at.protocol === 'https:' ? pool.https : pool.http, servername: at.hostname };
		return at.protocol === 'https:' ? https.request(at, forward, callback) : http.request(at, forward, callback);
	};
}
