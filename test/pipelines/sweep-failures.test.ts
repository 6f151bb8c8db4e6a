import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readRecord, readStore, sweepLines, sweepRun, useFixtures, verdictFor } from './fixtures.js';

describe('sweep against servers that fail', () => {
	const fx = useFixtures();

	/** A page answering 503 + `retryAfter` to its first `busy` requests, then 200 with an ETag. */
	async function busyServer(retryAfter: () => string, busy = 1) {
		const times: number[] = [];
		const server = await fx.serve((req, res) => {
			times.push(Date.now());
			if (times.length <= busy) return void res.writeHead(503, { 'retry-after': retryAfter() }).end('busy');
			res.writeHead(200, { etag: '"ok"' }).end('served at last');
		});
		return { server, times };
	}

	it('waits out a 503 with Retry-After in seconds and reports the page once', async () => {
		const { server, times } = await busyServer(() => '1');
		const url = server.url('/busy');

		const run = await sweepRun(fx.dir, [url], ['--retries', '1']);
		expect(run.status).toBe(0);
		expect(run.verdicts).toEqual([expect.objectContaining({ url, changed: true, reason: 'new', status: 200, etag: '"ok"' })]);
		expect(run.stderr).toBe('');
		expect(server.seen('/busy')).toHaveLength(2);
		// The server's own clock: the retry came no sooner than it asked (timer slack allowed).
		expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
		expect(await readRecord(fx.dir, url)).toMatchObject({ status: 200, etag: '"ok"' });
	});

	it('waits out a 503 with Retry-After as an HTTP-date', async () => {
		// A whole second at least 1.5 s away: longer than any backoff (at most 1 s), so only the date explains the wait.
		const { server, times } = await busyServer(() => new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000).toUTCString());
		const url = server.url('/busy-date');

		const run = await sweepRun(fx.dir, [url], ['--retries', '1', '--max-retry-after', '5']);
		expect(run.status).toBe(0);
		expect(run.verdicts).toEqual([expect.objectContaining({ url, changed: true, reason: 'new', status: 200 })]);
		expect(server.requests).toHaveLength(2);
		expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1400);
	});

	it('gives up at once with an error verdict when Retry-After is beyond --max-retry-after', async () => {
		const { server } = await busyServer(() => '120', 5);
		const dated = await busyServer(() => new Date(Date.now() + 600_000).toUTCString(), 5);
		const [url, datedUrl] = [server.url('/later'), dated.server.url('/later')];

		const run = await sweepRun(fx.dir, [url, datedUrl], ['--retries', '3', '--max-retry-after', '60']);
		expect(run.status).toBe(1);
		for (const target of [url, datedUrl]) {
			expect(verdictFor(run, target)).toMatchObject({ changed: false, reason: 'error', status: 503, error: { code: 'HTTP_503' } });
		}
		expect(server.requests).toHaveLength(1);
		expect(dated.server.requests).toHaveLength(1);
		expect(run.stderr).toContain(`${url}: HTTP_503`);
		expect(await readStore(fx.dir, [url, datedUrl])).toEqual([undefined, undefined]);
	});

	it('times out on a server that never answers, exits 1 and leaves the stored record alone', async () => {
		let hang = false;
		const server = await fx.serve((req, res) => {
			if (hang) return; // never answers; the server's close() drops the socket
			res.writeHead(200, { etag: '"good"', 'last-modified': 'Fri, 01 Mar 2024 10:00:00 GMT' }).end('good run');
		});
		const url = server.url('/slow');
		await sweepRun(fx.dir, [url]);
		const before = await readRecord(fx.dir, url);
		expect(before).toMatchObject({ status: 200, etag: '"good"' });

		hang = true;
		const run = await sweepRun(fx.dir, [url], ['--timeout', '0.5', '--retries', '0']);
		expect(run.status).toBe(1);
		expect(run.verdicts).toEqual([expect.objectContaining({ url, changed: false, reason: 'error', error: expect.objectContaining({ code: 'ETIMEDOUT' }) })]);
		expect(run.verdicts[0]).not.toHaveProperty('status');
		expect(run.stderr).toContain(`${url}: ETIMEDOUT`);
		expect(server.requests).toHaveLength(2);
		expect(await readRecord(fx.dir, url)).toEqual(before);

		const quiet = await sweepLines(fx.dir, [url], ['--timeout', '0.5', '--retries', '0']);
		expect(quiet).toMatchObject({ status: 1, lines: [] });
		expect(await readRecord(fx.dir, url)).toEqual(before);
	});

	it('reports a 500 that outlasts the retries as an error, keeps its record, and goes on with the other URLs', async () => {
		const bodies: Record<string, string> = { '/flaky': 'was fine', '/fine': 'always fine' };
		let broken = false;
		const server = await fx.serve((req, res) => {
			if (broken && req.url === '/flaky') return void res.writeHead(500).end('oops');
			res.writeHead(200).end(bodies[req.url!]);
		});
		const [flaky, fine] = [server.url('/flaky'), server.url('/fine')];
		await sweepRun(fx.dir, [flaky, fine]);
		const before = await readStore(fx.dir, [flaky, fine]);

		broken = true;
		bodies['/fine'] = 'fine, and edited';
		const run = await sweepRun(fx.dir, [flaky, fine], ['--retries', '1']);
		expect(run.status).toBe(1);
		expect(verdictFor(run, flaky)).toMatchObject({ changed: false, reason: 'error', status: 500, error: { code: 'HTTP_500' } });
		expect(verdictFor(run, fine)).toMatchObject({ changed: true, reason: 'new-body' });
		expect(server.seen('/flaky')).toHaveLength(3);
		const after = await readStore(fx.dir, [flaky, fine]);
		expect(after[0]).toEqual(before[0]);
		expect(after[1]!.hash).not.toBe(before[1]!.hash);

		// Once it recovers, the unchanged page is not reported: the error did not overwrite its hash.
		broken = false;
		expect(await sweepLines(fx.dir, [flaky, fine])).toMatchObject({ status: 0, lines: [] });
	});

	it('reports a body that does not decode as its encoding claims as an error, keeping the stored hash', async () => {
		let truncate = false;
		const gzipped = gzipSync('a compressed page');
		const server = await fx.serve((req, res) => {
			res.writeHead(200, { 'content-encoding': 'gzip' }).end(truncate ? gzipped.subarray(0, 12) : gzipped);
		});
		const url = server.url('/truncated');
		await sweepRun(fx.dir, [url]);
		const before = await readRecord(fx.dir, url);

		truncate = true;
		const run = await sweepRun(fx.dir, [url], ['--retries', '0']);
		expect(run.status).toBe(1);
		expect(verdictFor(run, url)).toMatchObject({ changed: false, reason: 'error', error: { code: 'Z_BUF_ERROR' } });
		expect(await readRecord(fx.dir, url)).toEqual(before);
	});

	it('reports a refused connection as an error, keeps its record, and goes on with the other URLs', async () => {
		const gone = await fx.serve((req, res) => res.writeHead(200, { etag: '"x"' }).end('soon unreachable'));
		const server = await fx.serve((req, res) => res.writeHead(200).end('reachable'));
		const [refused, fine] = [gone.url('/page'), server.url('/page')];
		await sweepRun(fx.dir, [refused, fine]);
		const before = await readStore(fx.dir, [refused, fine]);
		expect(before[0]).toMatchObject({ status: 200, etag: '"x"' });
		await gone.close();

		const run = await sweepRun(fx.dir, [refused, fine], ['--retries', '1']);
		expect(run.status).toBe(1);
		expect(verdictFor(run, refused)).toMatchObject({ changed: false, reason: 'error', error: { code: 'ECONNREFUSED' } });
		expect(verdictFor(run, fine)).toMatchObject({ changed: false, reason: 'same-hash' });
		expect(run.stderr).toContain(`${refused}: ECONNREFUSED`);
		expect(await readStore(fx.dir, [refused])).toEqual([before[0]]);
	});
});
