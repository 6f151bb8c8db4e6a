import { checkServerIdentity } from 'node:tls';
import { Options, type InitHook } from 'got';

type NativeOptions = ReturnType<Options['createNativeRequestOptions']>;

const gotOwn = Options.prototype.createNativeRequestOptions;

/**
 * got 14's `createNativeRequestOptions` (called once per request and per redirect hop)
 * returns an object literal that opens with a spread (`{...cacheOptions, ...unixOptions,
 * ALPNProtocols, ca, …}`, 34 properties). On Node 20's V8 a literal of that shape
 * rebuilds its hidden classes on every call: ~70–110 µs and ~18 KB of garbage per
 * request, measured alone (bench/native-options.js), against under 1 µs and 1 KB for the
 * same properties written without the spread. This is that function without it, for HTTP/1.1
 * requests; HTTP/2 and unix-socket requests keep got's own. It returns the keys and
 * values got's does (test/net/http/native-options.test.ts compares the two), less, for a
 * plain `http:` request without TLS settings, the keys whose value is undefined.
 */
function nativeRequestOptions(this: Options): NativeOptions {
	if (this.http2 || this.enableUnixSockets) return gotOwn.call(this);
	const url = this.url as URL;
	return url.protocol === 'http:' && !tlsSet(this.https) ? plainOptions(this) : tlsOptions(this, url);
}

/**
 * For `http:`, the same without the keys whose value is undefined (got's TLS settings
 * among them, which a plain request never reads). Node copies these options three times
 * per request (http.request's Object.assign, ClientRequest, Agent#addRequest's spread),
 * each copy in proportion to the keys.
 */
function plainOptions(options: Options): NativeOptions {
	const out: Record<string, unknown> = {
		checkServerIdentity,
		setHost: options.setHost,
		method: options.method,
		headers: options.headers,
	};
	if (options.agent.http !== undefined) out.agent = options.agent.http;
	const https = options.https;
	if (https.rejectUnauthorized !== undefined) out.rejectUnauthorized = https.rejectUnauthorized;
	const lookup = lookupOf(options);
	if (lookup !== undefined) out.lookup = lookup;
	if (options.dnsLookupIpVersion !== undefined) out.family = options.dnsLookupIpVersion;
	if (options.maxHeaderSize !== undefined) out.maxHeaderSize = options.maxHeaderSize;
	if (options.localAddress !== undefined) out.localAddress = options.localAddress;
	if (options.createConnection !== undefined) out.createConnection = options.createConnection;
	if (options.h2session !== undefined) out.h2session = options.h2session;
	const cache = options.cacheOptions as Record<string, unknown>;
	for (const key in cache) if (cache[key] !== undefined) out[key] = cache[key];
	return out as NativeOptions;
}

/** The DNS lookup got hands node: its own option, else the lookup of its DNS cache. */
const lookupOf = (options: Options): unknown => options.dnsLookup ?? (options.dnsCache as { lookup?: unknown } | undefined)?.lookup;

/** Any TLS setting besides rejectUnauthorized: then the full set, as got makes it, whatever the protocol. */
function tlsSet(https: Options['https']): boolean {
	for (const key in https) if (key !== 'rejectUnauthorized' && (https as Record<string, unknown>)[key] !== undefined) return true;
	return false;
}

/** Every key got's literal has, in its order, the cache options last instead of first. */
function tlsOptions(options: Options, url: URL): NativeOptions {
	const https = options.https;
	const agents = options.agent;
	const out: Record<string, unknown> = {
		ALPNProtocols: https.alpnProtocols,
		ca: https.certificateAuthority,
		cert: https.certificate,
		key: https.key,
		passphrase: https.passphrase,
		// got 14 maps an array of { buffer, passphrase } to node's { buf, passphrase } and then passes https.pfx as it was: so does this.
		pfx: https.pfx,
		rejectUnauthorized: https.rejectUnauthorized,
		checkServerIdentity: https.checkServerIdentity ?? checkServerIdentity,
		servername: https.serverName,
		ciphers: https.ciphers,
		honorCipherOrder: https.honorCipherOrder,
		minVersion: https.minVersion,
		maxVersion: https.maxVersion,
		sigalgs: https.signatureAlgorithms,
		sessionTimeout: https.tlsSessionLifetime,
		dhparam: https.dhparam,
		ecdhCurve: https.ecdhCurve,
		crl: https.certificateRevocationLists,
		secureOptions: https.secureOptions,
		lookup: lookupOf(options),
		family: options.dnsLookupIpVersion,
		agent: url.protocol === 'https:' ? agents.https : agents.http,
		setHost: options.setHost,
		method: options.method,
		maxHeaderSize: options.maxHeaderSize,
		localAddress: options.localAddress,
		headers: options.headers,
		createConnection: options.createConnection,
		timeout: undefined,
		h2session: options.h2session,
	};
	const cache = options.cacheOptions as Record<string, unknown>;
	for (const key in cache) out[key] = cache[key];
	return out as NativeOptions;
}

/**
 * A got `init` hook that gives each request's Options the spread-free
 * `createNativeRequestOptions` above. It sets an own property of that request's Options
 * alone: got's class, and other got clients in the process, are left as they are.
 *
 * @example
 * got.extend({ hooks: { init: [leanNativeOptions] } })
 */
export const leanNativeOptions: InitHook = (_raw, options) => {
	(options as { createNativeRequestOptions: () => NativeOptions }).createNativeRequestOptions = nativeRequestOptions;
};
