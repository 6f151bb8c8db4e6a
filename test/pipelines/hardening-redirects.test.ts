import { describe, expect, it } from 'vitest';
import { readRecord, readStore, sweepRun, useFixtures, verdictFor } from './fixtures.js';

/** Redirects that must end in an error verdict: loops, and targets that are not http(s). */
describe('sweep against hostile redirects', () => {
	const fx = useFixtures();

	it('stops a redirect loop with ERR_TOO_MANY_REDIRECTS, keeping the stored record', async () => {
		let looping = false;
		const server = await fx.serve((req, res) => {
			if (req.url === '/fine') return void res.end('fine');
			if (!looping) return void res.writeHead(200, { etag: '"v1"' }).end('not a loop yet');
			if (req.url === '/self') return void res.writeHead(302, { location: '/self' }).end();
			res.writeHead(301, { location: req.url === '/ping' ? '/pong' : '/ping' }).end();
		});
		const [self, ping, fine] = [server.url('/self'), server.url('/ping'), server.url('/fine')];
		expect((await sweepRun(fx.dir, [self, ping, fine])).status).toBe(0);
		const before = await readStore(fx.dir, [self, ping]);

		looping = true;
		const seen = server.requests.length;
		const run = await sweepRun(fx.dir, [self, ping, fine], ['--retries', '2']);
		expect(run.status).toBe(1);
		for (const url of [self, ping]) {
			expect(verdictFor(run, url)).toMatchObject({ changed: false, reason: 'error', error: { code: 'ERR_TOO_MANY_REDIRECTS' } });
			expect(run.stderr).toContain(`${url}: ERR_TOO_MANY_REDIRECTS: `);
		}
		expect(verdictFor(run, fine)).toMatchObject({ changed: false, reason: 'same-hash' });
		// Five redirects followed, then given up: the request and 5 hops, per URL, and no retry.
		expect(server.requests.length - seen).toBe(2 * 6 + 1);
		expect(await readStore(fx.dir, [self, ping])).toEqual(before);
	});

	it.each([
		['ftp:', 'ftp://example.org/file'],
		['javascript:', 'javascript:alert(document.cookie)'],
		['file:', 'file:///etc/passwd'],
		['data:', 'data:text/html,<script>alert(1)</script>'],
	])('refuses a redirect to a %s URL with ERR_UNSUPPORTED_PROTOCOL, keeping the stored record', async (scheme, location) => {
		let hostile = false;
		const server = await fx.serve((req, res) => {
			if (req.url === '/fine') return void res.end('fine');
			if (hostile) return void res.writeHead(302, { location }).end();
			res.writeHead(200, { etag: '"v1"' }).end('a plain page');
		});
		const [url, fine] = [server.url('/moved'), server.url('/fine')];
		expect((await sweepRun(fx.dir, [url, fine])).status).toBe(0);
		const before = await readRecord(fx.dir, url);

		hostile = true;
		const run = await sweepRun(fx.dir, [url, fine], ['--retries', '2']);
		expect(run.status).toBe(1);
		expect(verdictFor(run, url)).toMatchObject({
			changed: false,
			reason: 'error',
			error: { code: 'ERR_UNSUPPORTED_PROTOCOL', message: `Unsupported protocol: ${scheme}` },
		});
		expect(verdictFor(run, fine)).toMatchObject({ changed: false, reason: 'same-hash' });
		expect(server.seen('/moved')).toHaveLength(2); // not retried
		expect(await readRecord(fx.dir, url)).toEqual(before);
	});
});
