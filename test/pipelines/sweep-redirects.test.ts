import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { rawHeader, readRecord, readStore, sweepRun, useFixtures, verdictFor } from './fixtures.js';

/**
 * A site of redirect chains: `hops` maps a path to [status, next path]; every other
 * path is a page with an ETag (when `etags`) that answers If-None-Match with a 304.
 */
function site(hops: Record<string, [number, string]>, pages: Record<string, string>, etags = true): http.RequestListener {
	return (req, res) => {
		const hop = hops[req.url!];
		if (hop) return void res.writeHead(hop[0], { location: hop[1] }).end();
		const body = pages[req.url!];
		if (body === undefined) return void res.writeHead(404).end();
		const etag = `"${body}"`;
		if (etags && req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
		res.writeHead(200, etags ? { etag } : {}).end(body);
	};
}

describe('sweep through redirects', () => {
	const fx = useFixtures();

	it('reports the final URL and stores validators under the requested URL, following a mixed chain again next run', async () => {
		const pages = { '/c': 'final page' };
		const server = await fx.serve(site({ '/a': [301, '/b'], '/b': [302, '/c'] }, pages));
		const [a, c] = [server.url('/a'), server.url('/c')];

		const run1 = await sweepRun(fx.dir, [a]);
		expect(run1.status).toBe(0);
		expect(run1.verdicts).toEqual([expect.objectContaining({ url: a, changed: true, reason: 'new', status: 200, etag: '"final page"', finalUrl: c })]);
		expect(server.requests.map((request) => request.path)).toEqual(['/a', '/b', '/c']);
		const [atA, atB, atC] = await readStore(fx.dir, [a, server.url('/b'), c]);
		expect(atA).toMatchObject({ status: 200, etag: '"final page"', finalUrl: c });
		expect(atA).not.toHaveProperty('permanent');
		expect(atB).toBeUndefined();
		expect(atC).toBeUndefined();

		// A 302 in the chain: the next run starts from the requested URL again.
		const run2 = await sweepRun(fx.dir, [a]);
		expect(run2.verdicts).toEqual([expect.objectContaining({ url: a, changed: false, reason: '304', finalUrl: c })]);
		expect(server.requests.map((request) => request.path)).toEqual(['/a', '/b', '/c', '/a', '/b', '/c']);
		expect(rawHeader(server.requests[3], 'if-none-match')).toEqual(['"final page"']);
		expect(rawHeader(server.requests[5], 'if-none-match')).toEqual(['"final page"']);
	});

	it('goes straight to the destination of an all-permanent chain on later runs', async () => {
		const pages: Record<string, string> = { '/p3': 'moved for good' };
		const server = await fx.serve(site({ '/p1': [301, '/p2'], '/p2': [308, '/p3'] }, pages));
		const [p1, p3] = [server.url('/p1'), server.url('/p3')];

		const run1 = await sweepRun(fx.dir, [p1]);
		expect(verdictFor(run1, p1)).toMatchObject({ changed: true, reason: 'new', finalUrl: p3 });
		expect(await readRecord(fx.dir, p1)).toMatchObject({ status: 200, finalUrl: p3, permanent: true, etag: '"moved for good"' });

		const run2 = await sweepRun(fx.dir, [p1]);
		expect(verdictFor(run2, p1)).toMatchObject({ changed: false, reason: '304', finalUrl: p3 });
		expect(server.requests.map((request) => request.path)).toEqual(['/p1', '/p2', '/p3', '/p3']);
		expect(rawHeader(server.requests[3], 'if-none-match')).toEqual(['"moved for good"']);

		pages['/p3'] = 'moved and edited';
		const run3 = await sweepRun(fx.dir, [p1]);
		expect(verdictFor(run3, p1)).toMatchObject({ changed: true, reason: 'new-body', finalUrl: p3, etag: '"moved and edited"' });
		expect(server.seen('/p1')).toHaveLength(1);
		expect(await readRecord(fx.dir, p1)).toMatchObject({ finalUrl: p3, permanent: true, etag: '"moved and edited"' });

		const run4 = await sweepRun(fx.dir, [p1]);
		expect(verdictFor(run4, p1)).toMatchObject({ changed: false, reason: '304' });
		expect(server.seen('/p1')).toHaveLength(1);
		expect(server.seen('/p3')).toHaveLength(4);
	});

	it('keeps going straight to a permanent destination that has no validators', async () => {
		const pages: Record<string, string> = { '/new-home': 'hash only' };
		const server = await fx.serve(site({ '/old-home': [308, '/new-home'] }, pages, false));
		const [old, home] = [server.url('/old-home'), server.url('/new-home')];

		await sweepRun(fx.dir, [old]);
		for (let run = 2; run <= 3; run++) {
			const result = await sweepRun(fx.dir, [old]);
			expect(verdictFor(result, old)).toMatchObject({ changed: false, reason: 'same-hash', finalUrl: home });
			expect(await readRecord(fx.dir, old)).toMatchObject({ finalUrl: home, permanent: true });
		}
		expect(server.requests.map((request) => request.path)).toEqual(['/old-home', '/new-home', '/new-home', '/new-home']);
	});

	it('goes back to the requested URL once the permanent destination redirects temporarily', async () => {
		const hops: Record<string, [number, string]> = { '/old': [301, '/moved'] };
		const server = await fx.serve(site(hops, { '/moved': 'same page', '/elsewhere': 'same page' }));
		const [old, elsewhere] = [server.url('/old'), server.url('/elsewhere')];

		await sweepRun(fx.dir, [old]);
		hops['/moved'] = [302, '/elsewhere'];
		const run2 = await sweepRun(fx.dir, [old]);
		expect(verdictFor(run2, old)).toMatchObject({ changed: false, reason: '304', finalUrl: elsewhere });
		expect(await readRecord(fx.dir, old)).toMatchObject({ finalUrl: elsewhere, etag: '"same page"' });
		expect(await readRecord(fx.dir, old)).not.toHaveProperty('permanent');

		await sweepRun(fx.dir, [old]);
		expect(server.requests.map((request) => request.path)).toEqual(['/old', '/moved', '/moved', '/elsewhere', '/old', '/moved', '/elsewhere']);
	});

	it('does not take a shortcut through a chain of temporary redirects', async () => {
		const server = await fx.serve(site({ '/t1': [302, '/t2'], '/t2': [307, '/t3'] }, { '/t3': 'temporary home' }));
		const t1 = server.url('/t1');

		for (let run = 1; run <= 3; run++) await sweepRun(fx.dir, [t1]);
		expect(server.seen('/t1')).toHaveLength(3);
		expect(await readRecord(fx.dir, t1)).toMatchObject({ finalUrl: server.url('/t3') });
		expect(await readRecord(fx.dir, t1)).not.toHaveProperty('permanent');
	});
});
