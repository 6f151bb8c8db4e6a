import dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/net/http/client.js';
import { denyPrivateLookup } from '../../src/net/http/guard.js';
import { attemptRequest } from '../../src/net/http/request.js';
import { readRecord, sweepRun, useFixtures, verdictFor } from './fixtures.js';

/** --deny-private: loopback by hostname, by literal (however spelt), and by redirect. */
describe('sweep --deny-private', () => {
	const fx = useFixtures();

	it('refuses localhost, 127.0.0.1 and its other spellings with EPRIVATE; without the flag they work', async () => {
		const server = await fx.serve((req, res) => res.writeHead(200, { etag: '"v1"' }).end(`page ${req.url}`));
		const port = new URL(server.origin).port;
		const urls = {
			localhost: `http://localhost:${port}/name`,
			literal: `http://127.0.0.1:${port}/literal`,
			decimal: `http://2130706433:${port}/decimal`, // parsed as 127.0.0.1
			mapped: `http://[::ffff:127.0.0.1]:${port}/mapped`, // IPv4-mapped IPv6
		};
		const normal = {
			localhost: urls.localhost,
			literal: urls.literal,
			decimal: `http://127.0.0.1:${port}/decimal`,
			mapped: `http://[::ffff:7f00:1]:${port}/mapped`,
		};

		const denied = await sweepRun(fx.dir, Object.values(urls), ['--deny-private', '--retries', '2']);
		expect(denied.status).toBe(1);
		for (const url of Object.values(normal)) {
			expect(verdictFor(denied, url)).toMatchObject({ changed: false, reason: 'error', error: { code: 'EPRIVATE' } });
			expect(denied.stderr).toContain(`${url}: EPRIVATE: `);
		}
		expect((verdictFor(denied, normal.localhost).error as { message: string }).message).toMatch(
			/^localhost resolves to (127\.0\.0\.1|::1), which is a private or loopback address \(--deny-private\)$/,
		);
		expect(server.requests).toHaveLength(0);
		for (const url of Object.values(normal)) expect(await readRecord(fx.dir, url)).toBeUndefined();

		const allowed = await sweepRun(fx.dir, [urls.localhost, urls.literal, urls.decimal]);
		expect(allowed.status).toBe(0);
		for (const url of [normal.localhost, normal.literal, normal.decimal]) {
			expect(verdictFor(allowed, url)).toMatchObject({ changed: true, reason: 'new', status: 200 });
		}

		// A URL stored before the flag was used keeps its record when refused later.
		const before = await readRecord(fx.dir, normal.literal);
		expect((await sweepRun(fx.dir, [urls.literal], ['--deny-private'])).status).toBe(1);
		expect(await readRecord(fx.dir, normal.literal)).toEqual(before);
	});

	it('refuses a redirect from a public-looking host to loopback, by literal or by name', async () => {
		let port = '';
		const server = await fx.serve((req, res) => {
			if (req.url === '/to-literal') return void res.writeHead(302, { location: `http://127.0.0.1:${port}/inside` }).end();
			if (req.url === '/to-name') return void res.writeHead(301, { location: `http://localhost:${port}/inside` }).end();
			res.end('the inside page');
		});
		port = new URL(server.origin).port;
		// No address on this machine is public, so the test's resolver lets `public.test`
		// (and only it) through to 127.0.0.1, and leaves every other name to the guard.
		const guard = denyPrivateLookup();
		const lookup = ((hostname: string, options: dns.LookupOptions, callback: never) =>
			hostname === 'public.test' ? dns.lookup('127.0.0.1', options, callback) : guard(hostname, options, callback)) as unknown as typeof dns.lookup;

		const probe = async (denyPrivate: boolean, path: string) => {
			const client = createHttpClient({ userAgent: 'revisit-test', timeoutMs: 5000, acceptEncoding: 'gzip', denyPrivate });
			try {
				const http = denyPrivate ? client.got.extend({ dnsLookup: lookup }) : client.got;
				const host = denyPrivate ? 'public.test' : '127.0.0.1';
				return (await attemptRequest(http, 'GET', `http://${host}:${port}${path}`, {}, new AbortController().signal, Date.now)).result;
			} finally {
				client.close();
			}
		};

		for (const path of ['/to-literal', '/to-name']) {
			const refused = await probe(true, path);
			expect(refused, path).toMatchObject({ status: 0, error: { code: 'EPRIVATE' } });
			const followed = await probe(false, path);
			expect(followed, path).toMatchObject({ status: 200, finalUrl: expect.stringMatching(/\/inside$/) });
		}
		// The first hops were served; the loopback target only when the flag was off.
		expect(server.seen('/to-literal')).toHaveLength(2);
		expect(server.seen('/inside')).toHaveLength(2);
	});
});
