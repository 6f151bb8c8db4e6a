import http from 'node:http';
import https from 'node:https';
import { Options } from 'got';
import { describe, expect, it } from 'vitest';
import { leanNativeOptions } from '../../../src/net/http/native-options.js';

/** The options as got's own `createNativeRequestOptions` makes them, and as the hook's does. */
function both(url: string, init: ConstructorParameters<typeof Options>[1]) {
	const options = new Options(url, init);
	const gots = Options.prototype.createNativeRequestOptions.call(options);
	leanNativeOptions({}, options);
	expect(options.createNativeRequestOptions).not.toBe(Options.prototype.createNativeRequestOptions);
	return { gots, ours: options.createNativeRequestOptions(), options };
}

/** The keys whose value is not undefined: what a plain http request gets. */
const defined = (options: object) => Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));

describe('leanNativeOptions', () => {
	it('builds the request options got builds for a plain http request, less the keys whose value is undefined', () => {
		const agent = new http.Agent({ keepAlive: true });
		const { gots, ours } = both('http://127.0.0.1:8080/p/1', {
			method: 'HEAD',
			headers: { 'if-none-match': '"x"' },
			agent: { http: agent },
			https: { rejectUnauthorized: true },
			localAddress: '127.0.0.1',
		});
		expect(ours).toStrictEqual(defined(gots));
		expect(Object.keys(ours).length).toBeLessThan(Object.keys(gots).length / 2);
		expect(ours).toMatchObject({ agent, method: 'HEAD', rejectUnauthorized: true, localAddress: '127.0.0.1' });
	});

	it('keeps every key got sets for an http request with a TLS setting (a proxy may read it)', () => {
		const { gots, ours } = both('http://127.0.0.1:8080/', { https: { certificateAuthority: 'CA' } });
		expect(ours).toStrictEqual(gots);
	});

	it('builds the same request options as got for https, with TLS settings, a DNS lookup and a local address', () => {
		const agent = new https.Agent();
		const dnsLookup = (() => {}) as never;
		const { gots, ours } = both('https://example.test/', {
			agent: { https: agent },
			https: { rejectUnauthorized: false, minVersion: 'TLSv1.2', ciphers: 'HIGH', certificateAuthority: 'CA', serverName: 'example.test' },
			dnsLookup,
			dnsLookupIpVersion: 4,
			localAddress: '127.0.0.1',
			setHost: false,
			maxHeaderSize: 8192,
		});
		expect(ours).toStrictEqual(gots);
		expect(ours).toMatchObject({ agent, lookup: dnsLookup, rejectUnauthorized: false, family: 4, servername: 'example.test' });
	});

	it('hands HTTP/2 requests to got itself', () => {
		const { gots, ours } = both('https://example.test/', { http2: true });
		expect(ours).toStrictEqual(gots);
	});

	it('copies the cache options', () => {
		const plain = both('http://127.0.0.1/', { cacheOptions: { shared: false, immutableMinTimeToLive: 5 } });
		expect(plain.ours).toStrictEqual(defined(plain.gots));
		expect(plain.ours).toMatchObject({ shared: false, immutableMinTimeToLive: 5 });
		const tls = both('https://127.0.0.1/', { cacheOptions: { shared: false } });
		expect(tls.ours).toStrictEqual(tls.gots);
	});
});
