import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rawHeader, readRecord, sweepLines, sweepRun, useFixtures, verdictFor } from './fixtures.js';

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

describe('sweep with stored validators', () => {
	const fx = useFixtures();

	it('sends a strong ETag back byte for byte, gets a 304, and picks up the new ETag when the page changes', async () => {
		// Every character an opaque tag may hold, so any escaping or normalising shows.
		const first = `"v1-!#$%&'()*+,-./:;<=>?@[]^_\`{|}~"`;
		const page = { etag: first, body: 'first version' };
		const server = await fx.serve((req, res) => {
			if (req.headers['if-none-match'] === page.etag) return void res.writeHead(304, { etag: page.etag }).end();
			res.writeHead(200, { etag: page.etag, 'content-type': 'text/plain' }).end(page.body);
		});
		const url = server.url('/page');

		const run1 = await sweepRun(fx.dir, [url]);
		expect(run1.status).toBe(0);
		expect(run1.verdicts).toMatchObject([{ url, changed: true, reason: 'new', status: 200, etag: first, hash: hashOf('first version') }]);
		expect(rawHeader(server.requests[0], 'if-none-match')).toEqual([]);
		expect(await readRecord(fx.dir, url)).toMatchObject({ status: 200, etag: first, hash: hashOf('first version'), encoding: 'gzip' });

		const run2 = await sweepRun(fx.dir, [url]);
		expect(run2.verdicts).toMatchObject([{ url, changed: false, reason: '304', status: 304, etag: first, bytes: 0 }]);
		expect(server.requests).toHaveLength(2);
		expect(rawHeader(server.requests[1], 'if-none-match')).toEqual([first]);
		expect(rawHeader(server.requests[1], 'if-modified-since')).toEqual([]);

		page.etag = '"v2"';
		page.body = 'second version';
		const run3 = await sweepLines(fx.dir, [url]);
		expect(run3).toMatchObject({ status: 0, lines: [url] });
		expect(rawHeader(server.requests[2], 'if-none-match')).toEqual([first]);
		expect(await readRecord(fx.dir, url)).toMatchObject({ status: 200, etag: '"v2"', hash: hashOf('second version') });

		const run4 = await sweepLines(fx.dir, [url]);
		expect(run4).toMatchObject({ status: 0, lines: [] });
		expect(rawHeader(server.requests[3], 'if-none-match')).toEqual(['"v2"']);
	});

	it('sends a weak ETag back with its W/ prefix intact', async () => {
		const server = await fx.serve((req, res) => {
			if (req.headers['if-none-match'] === 'W/"0815"') return void res.writeHead(304, { etag: 'W/"0815"' }).end();
			res.writeHead(200, { etag: 'W/"0815"' }).end('weakly tagged');
		});
		const url = server.url('/weak');

		const run1 = await sweepRun(fx.dir, [url]);
		expect(verdictFor(run1, url)).toMatchObject({ changed: true, reason: 'new', etag: 'W/"0815"' });
		expect(await readRecord(fx.dir, url)).toMatchObject({ etag: 'W/"0815"' });

		const run2 = await sweepRun(fx.dir, [url]);
		expect(verdictFor(run2, url)).toMatchObject({ changed: false, reason: '304', etag: 'W/"0815"' });
		expect(rawHeader(server.requests[1], 'if-none-match')).toEqual(['W/"0815"']);
	});

	it('echoes Last-Modified as If-Modified-Since exactly as the server spelt it, never a regenerated date', async () => {
		// Both are valid HTTP-dates (RFC 9110 §5.6.7 obsolete forms), neither is the IMF-fixdate a client would write.
		const asctime = 'Sun Nov  6 08:49:37 1994';
		const rfc850 = 'Sunday, 06-Nov-94 08:49:37 GMT';
		const pages: Record<string, { lastModified: string; body: string }> = {
			'/asctime': { lastModified: asctime, body: 'one' },
			'/rfc850': { lastModified: rfc850, body: 'two' },
		};
		const server = await fx.serve((req, res) => {
			const page = pages[req.url!]!;
			if (req.headers['if-modified-since'] === page.lastModified) return void res.writeHead(304).end();
			res.writeHead(200, { 'last-modified': page.lastModified }).end(page.body);
		});
		const urls = [server.url('/asctime'), server.url('/rfc850')];

		const run1 = await sweepRun(fx.dir, urls);
		expect(verdictFor(run1, urls[0]!)).toMatchObject({ changed: true, reason: 'new', lastModified: asctime });
		expect(verdictFor(run1, urls[1]!)).toMatchObject({ changed: true, reason: 'new', lastModified: rfc850 });
		expect(verdictFor(run1, urls[0]!)).not.toHaveProperty('etag');
		const stored = await readRecord(fx.dir, urls[0]!);
		expect(stored?.lastModified).toBe(asctime);
		expect(stored).not.toHaveProperty('etag');

		const run2 = await sweepRun(fx.dir, urls);
		expect(run2.verdicts.map((verdict) => verdict.reason)).toEqual(['304', '304']);
		expect(rawHeader(server.seen('/asctime')[1], 'if-modified-since')).toEqual([asctime]);
		expect(rawHeader(server.seen('/rfc850')[1], 'if-modified-since')).toEqual([rfc850]);
		expect(rawHeader(server.seen('/asctime')[1], 'if-none-match')).toEqual([]);

		pages['/rfc850'] = { lastModified: 'Tue, 15 Nov 1994 12:45:26 GMT', body: 'two, edited' };
		const run3 = await sweepLines(fx.dir, urls);
		expect(run3).toMatchObject({ status: 0, lines: [urls[1]] });
		expect(await readRecord(fx.dir, urls[1]!)).toMatchObject({ lastModified: 'Tue, 15 Nov 1994 12:45:26 GMT', hash: hashOf('two, edited') });
		expect(await readRecord(fx.dir, urls[0]!)).toMatchObject({ lastModified: asctime, hash: hashOf('one') });
	});

	it('sends both validators when the server gave both', async () => {
		const etag = '"both-1"';
		const lastModified = 'Wed, 21 Oct 2015 07:28:00 GMT';
		const server = await fx.serve((req, res) => {
			// If-None-Match takes precedence over If-Modified-Since (RFC 9110 §13.2.2).
			if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag, 'last-modified': lastModified }).end();
			res.writeHead(200, { etag, 'last-modified': lastModified }).end('two validators');
		});
		const url = server.url('/both');

		const run1 = await sweepRun(fx.dir, [url]);
		expect(verdictFor(run1, url)).toMatchObject({ changed: true, reason: 'new', etag, lastModified });
		expect(await readRecord(fx.dir, url)).toMatchObject({ etag, lastModified });

		const run2 = await sweepRun(fx.dir, [url]);
		expect(verdictFor(run2, url)).toMatchObject({ changed: false, reason: '304', etag, lastModified });
		expect(rawHeader(server.requests[1], 'if-none-match')).toEqual([etag]);
		expect(rawHeader(server.requests[1], 'if-modified-since')).toEqual([lastModified]);
	});

	it('falls back to the body hash when the server sends no validators', async () => {
		const bodies: Record<string, string> = { '/stable': 'never changes', '/edited': 'draft' };
		const server = await fx.serve((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(bodies[req.url!]));
		const [stable, edited] = [server.url('/stable'), server.url('/edited')];

		const run1 = await sweepRun(fx.dir, [stable, edited]);
		expect(run1.verdicts.map((verdict) => [verdict.url, verdict.reason])).toEqual(
			expect.arrayContaining([
				[stable, 'new'],
				[edited, 'new'],
			]),
		);
		expect(verdictFor(run1, stable)).not.toHaveProperty('etag');
		expect(verdictFor(run1, stable)).not.toHaveProperty('lastModified');

		const run2 = await sweepRun(fx.dir, [stable, edited]);
		expect(verdictFor(run2, stable)).toMatchObject({ changed: false, reason: 'same-hash', status: 200, hash: hashOf('never changes') });
		expect(verdictFor(run2, edited)).toMatchObject({ changed: false, reason: 'same-hash', hash: hashOf('draft') });
		for (const request of server.requests.slice(2)) {
			expect(rawHeader(request, 'if-none-match')).toEqual([]);
			expect(rawHeader(request, 'if-modified-since')).toEqual([]);
		}

		bodies['/edited'] = 'published';
		const run3 = await sweepRun(fx.dir, [stable, edited]);
		expect(verdictFor(run3, edited)).toMatchObject({ changed: true, reason: 'new-body', hash: hashOf('published') });
		expect(verdictFor(run3, stable)).toMatchObject({ changed: false, reason: 'same-hash' });
		expect(await readRecord(fx.dir, edited)).toMatchObject({ status: 200, hash: hashOf('published') });

		const run4 = await sweepLines(fx.dir, [stable, edited]);
		expect(run4).toMatchObject({ status: 0, lines: [] });
		expect(server.requests).toHaveLength(8);
	});
});
