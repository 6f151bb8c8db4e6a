import { createHash } from 'node:crypto';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rawHeader, readRecord, readStore, sweepLines, sweepRun, useFixtures, verdictFor } from './fixtures.js';

const hashOf = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

describe('sweep over 304 answers', () => {
	const fx = useFixtures();

	it('takes an empty 304 as unchanged, even when it advertises the full Content-Length', async () => {
		const body = 'x'.repeat(5000);
		const server = await fx.serve((req, res) => {
			// RFC 9110 §8.6: a 304 may carry the Content-Length the 200 would have had; no body follows.
			if (req.headers['if-none-match'] === '"e"') return void res.writeHead(304, { etag: '"e"', 'content-length': '5000' }).end();
			res.writeHead(200, { etag: '"e"', 'content-length': '5000' }).end(body);
		});
		const url = server.url('/empty-304');

		await sweepRun(fx.dir, [url]);
		const before = await readRecord(fx.dir, url);
		expect(before).toMatchObject({ status: 200, etag: '"e"', hash: hashOf(body), size: 5000 });

		const run2 = await sweepRun(fx.dir, [url]);
		expect(run2.status).toBe(0);
		expect(run2.verdicts).toEqual([expect.objectContaining({ url, changed: false, reason: '304', status: 304, etag: '"e"', hash: hashOf(body), bytes: 0 })]);
		const after = await readRecord(fx.dir, url);
		expect(after).toEqual({ ...before, lastChecked: after!.lastChecked, checks: after!.checks, rate: after!.rate });
		expect(after!.lastChecked).toBeGreaterThanOrEqual(before!.lastChecked);
	});

	it('stores the new ETag a 304 carries and sends it next time', async () => {
		let current = '"gen-1"';
		const lastModified = 'Mon, 01 Jan 2024 00:00:00 GMT';
		const server = await fx.serve((req, res) => {
			const inm = req.headers['if-none-match'];
			// The server re-tagged the same content: it still matches the old tag but answers with the new one.
			if (inm === '"gen-1"' || inm === current) return void res.writeHead(304, { etag: current }).end();
			res.writeHead(200, { etag: current, 'last-modified': lastModified }).end('same content');
		});
		const url = server.url('/retagged');

		await sweepRun(fx.dir, [url]);
		current = '"gen-2"';
		const run2 = await sweepRun(fx.dir, [url]);
		expect(verdictFor(run2, url)).toMatchObject({ changed: false, reason: '304', etag: '"gen-2"', lastModified });
		expect(await readRecord(fx.dir, url)).toMatchObject({ etag: '"gen-2"', lastModified, hash: hashOf('same content') });

		const run3 = await sweepRun(fx.dir, [url]);
		expect(verdictFor(run3, url)).toMatchObject({ reason: '304', etag: '"gen-2"' });
		expect(rawHeader(server.requests[2], 'if-none-match')).toEqual(['"gen-2"']);
		expect(rawHeader(server.requests[2], 'if-modified-since')).toEqual([lastModified]);
	});

	it('keeps the stored validators when a 304 carries none', async () => {
		const etag = '"kept"';
		const lastModified = 'Tue, 02 Jan 2024 03:04:05 GMT';
		const server = await fx.serve((req, res) => {
			if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
			res.writeHead(200, { etag, 'last-modified': lastModified }).end('bare 304s');
		});
		const url = server.url('/bare');

		await sweepRun(fx.dir, [url]);
		for (const run of [2, 3]) {
			const result = await sweepRun(fx.dir, [url]);
			expect(verdictFor(result, url)).toMatchObject({ changed: false, reason: '304', etag, lastModified });
			expect(await readRecord(fx.dir, url)).toMatchObject({ status: 200, etag, lastModified, hash: hashOf('bare 304s') });
			expect(rawHeader(server.requests[run - 1], 'if-none-match')).toEqual([etag]);
			expect(rawHeader(server.requests[run - 1], 'if-modified-since')).toEqual([lastModified]);
		}
	});
});

describe('sweep over compressed bodies', () => {
	const fx = useFixtures();
	const content = Buffer.from('<p>the same page, whichever way it travels</p>\n'.repeat(200));
	const encoded: Record<string, { encoding?: string; bytes: Buffer }> = {
		'/identity': { bytes: content },
		'/gzip': { encoding: 'gzip', bytes: gzipSync(content) },
		'/br': { encoding: 'br', bytes: brotliCompressSync(content) },
		'/deflate': { encoding: 'deflate', bytes: deflateSync(content) },
		'/deflate-raw': { encoding: 'deflate', bytes: deflateRawSync(content) },
		// Codings listed in the order applied: gzip first, then br.
		'/stacked': { encoding: 'gzip, br', bytes: brotliCompressSync(gzipSync(content)) },
	};

	it('hashes gzip and br bodies like the identity body, and pins Accept-Encoding for the run', async () => {
		const server = await fx.serve((req, res) => {
			const { encoding, bytes } = encoded[req.url!]!;
			const etag = `"${req.url!.slice(1)}"`;
			if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
			res.writeHead(200, { etag, 'content-length': bytes.length, ...(encoding ? { 'content-encoding': encoding } : {}) }).end(bytes);
		});
		const paths = ['/identity', '/gzip', '/br'];
		const urls = paths.map((path) => server.url(path));

		const run1 = await sweepRun(fx.dir, urls);
		expect(run1.status).toBe(0);
		for (const path of paths) {
			expect(verdictFor(run1, server.url(path))).toMatchObject({ changed: true, reason: 'new', hash: hashOf(content), bytes: encoded[path]!.bytes.length });
		}
		expect(encoded['/gzip']!.bytes.length).toBeLessThan(content.length);
		for (const request of server.requests) expect(rawHeader(request, 'accept-encoding')).toEqual(['gzip']);
		const records = await readStore(fx.dir, urls);
		expect(records.map((record) => [record?.hash, record?.encoding])).toEqual(paths.map(() => [hashOf(content), 'gzip']));

		// Another encoding: the stored ETags belong to gzip answers, so they are not sent; the hash still matches.
		const run2 = await sweepRun(fx.dir, urls, ['--accept-encoding', 'br']);
		expect(run2.verdicts.map((verdict) => verdict.reason)).toEqual(['same-hash', 'same-hash', 'same-hash']);
		for (const request of server.requests.slice(3)) {
			expect(rawHeader(request, 'accept-encoding')).toEqual(['br']);
			expect(rawHeader(request, 'if-none-match')).toEqual([]);
		}

		const run3 = await sweepRun(fx.dir, urls, ['--accept-encoding', 'br']);
		expect(run3.verdicts.map((verdict) => verdict.reason)).toEqual(['304', '304', '304']);
		for (const request of server.requests.slice(6)) {
			expect(rawHeader(request, 'accept-encoding')).toEqual(['br']);
			expect(rawHeader(request, 'if-none-match')).toHaveLength(1);
		}
	});

	it('decodes deflate, raw deflate and stacked codings to the same hash too', async () => {
		const server = await fx.serve((req, res) => {
			const { encoding, bytes } = encoded[req.url!]!;
			res.writeHead(200, { 'content-encoding': encoding! }).end(bytes);
		});
		const paths = ['/deflate', '/deflate-raw', '/stacked'];
		const run = await sweepRun(
			fx.dir,
			paths.map((path) => server.url(path)),
			['--accept-encoding', 'gzip, deflate, br'],
		);
		expect(run.stderr).toBe('');
		expect(run.status).toBe(0);
		for (const path of paths) {
			expect(verdictFor(run, server.url(path))).toMatchObject({ reason: 'new', hash: hashOf(content), bytes: encoded[path]!.bytes.length });
		}
		for (const request of server.requests) expect(rawHeader(request, 'accept-encoding')).toEqual(['gzip, deflate, br']);
	});
});

describe('sweep over pages that disappear', () => {
	const fx = useFixtures();

	it('reports a page that turns 404 once, stays quiet on the 410 after, and reports it again when it returns', async () => {
		const page = { status: 200, body: 'alive' };
		const server = await fx.serve((req, res) => {
			if (page.status !== 200) return void res.writeHead(page.status, { 'content-type': 'text/plain' }).end('not here');
			if (req.headers['if-none-match'] === `"${page.body}"`) return void res.writeHead(304).end();
			res.writeHead(200, { etag: `"${page.body}"` }).end(page.body);
		});
		const url = server.url('/fleeting');

		expect(await sweepLines(fx.dir, [url])).toMatchObject({ status: 0, lines: [url] });

		page.status = 404;
		const run2 = await sweepRun(fx.dir, [url]);
		expect(run2.status).toBe(0);
		expect(run2.verdicts).toEqual([expect.objectContaining({ url, changed: true, reason: 'gone', status: 404 })]);
		expect(run2.verdicts[0]).not.toHaveProperty('etag');
		expect(run2.verdicts[0]).not.toHaveProperty('hash');
		const gone = await readRecord(fx.dir, url);
		expect(gone).toMatchObject({ status: 404 });
		expect(gone).not.toHaveProperty('etag');
		expect(gone).not.toHaveProperty('hash');

		page.status = 410;
		const run3 = await sweepRun(fx.dir, [url]);
		expect(run3.verdicts).toEqual([expect.objectContaining({ url, changed: false, reason: 'gone', status: 410 })]);
		// A gone page has no validators to send.
		expect(rawHeader(server.requests[2], 'if-none-match')).toEqual([]);
		expect(await readRecord(fx.dir, url)).toMatchObject({ status: 410 });
		expect(await sweepLines(fx.dir, [url])).toMatchObject({ status: 0, lines: [] });

		page.status = 200;
		page.body = 'back again';
		const run5 = await sweepRun(fx.dir, [url]);
		expect(run5.verdicts).toEqual([expect.objectContaining({ url, changed: true, reason: 'new-body', status: 200, etag: '"back again"' })]);
		expect(rawHeader(server.requests[4], 'if-none-match')).toEqual([]);
		expect(await readRecord(fx.dir, url)).toMatchObject({ status: 200, etag: '"back again"', hash: hashOf('back again') });
	});
});
