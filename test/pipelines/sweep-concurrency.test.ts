import { describe, expect, it } from 'vitest';
import { sweepRun, useFixtures } from './fixtures.js';

describe('sweep concurrency', () => {
	const fx = useFixtures();

	it('never has more than --per-host requests in flight to one host', async () => {
		let inFlight = 0;
		let most = 0;
		const server = await fx.serve((req, res) => {
			inFlight++;
			most = Math.max(most, inFlight);
			// Hold every answer long enough for the sweep to try to overlap more.
			setTimeout(() => {
				inFlight--;
				res.writeHead(200).end(`page ${req.url}`);
			}, 40);
		});
		const urls = Array.from({ length: 8 }, (_, i) => server.url(`/p${i}`));

		const run = await sweepRun(fx.dir, urls, ['--per-host', '2']);
		expect(run.status).toBe(0);
		expect(run.verdicts.map((verdict) => verdict.url).sort()).toEqual([...urls].sort());
		expect(server.requests).toHaveLength(8);
		expect(most).toBe(2);

		// The same server and URLs with a wider limit do overlap more: the fixture can tell.
		most = 0;
		await sweepRun(fx.dir, urls, ['--per-host', '4']);
		expect(most).toBe(4);
	});

	it('lets a fast host finish while a slow host holds its only slot', async () => {
		// One log for both servers: the order in which requests arrived, across hosts.
		const log: string[] = [];
		const fastPaths = ['/f1', '/f2', '/f3', '/f4'];
		let release!: (by: string) => void;
		const released = new Promise<string>((resolve) => (release = resolve));
		// A fallback, so a limiter that blocks the fast host fails the test instead of hanging it.
		const fallback = setTimeout(() => release('fallback'), 3000);

		const slow = await fx.serve((req, res) => {
			log.push(`slow${req.url}`);
			void released.then(() => res.writeHead(200).end(`slow ${req.url}`));
		});
		const fast = await fx.serve((req, res) => {
			log.push(`fast${req.url}`);
			res.writeHead(200).end(`fast ${req.url}`);
			if (fast.requests.length === fastPaths.length) release('fast host');
		});
		const slowUrls = ['/s1', '/s2', '/s3'].map((path) => slow.url(path));
		const fastUrls = fastPaths.map((path) => fast.url(path));

		try {
			const run = await sweepRun(fx.dir, [...slowUrls, ...fastUrls], ['--concurrency', '2', '--per-host', '1']);
			expect(run.status).toBe(0);
			expect(await released).toBe('fast host');
			// Each fast request arrived before the slow host's second one: the slow host held one slot, never both.
			// (The first two go out together, to two servers, so they may land in either order.)
			expect(log.slice(0, 2).sort()).toEqual(['fast/f1', 'slow/s1']);
			expect(log.slice(2)).toEqual(['fast/f2', 'fast/f3', 'fast/f4', 'slow/s2', 'slow/s3']);
			// Verdicts come out as they are decided: the fast host's before any of the slow host's.
			expect(run.verdicts.map((verdict) => verdict.url)).toEqual([...fastUrls, ...slowUrls]);
		} finally {
			clearTimeout(fallback);
		}
	});

	it('reads on past a host that is stuck, once its lines would fill the line window', async () => {
		// 70 lines for a host that answers nothing until released, then 4 for a fast host. The window
		// holds 64 lines (twice --concurrency, at least 64): without parking, the stuck host's lines
		// fill it and the fast host's lines are never read until the stuck host answers.
		let release!: (by: string) => void;
		const released = new Promise<string>((resolve) => (release = resolve));
		const fallback = setTimeout(() => release('fallback'), 8000);
		const stuck = await fx.serve((req, res) => {
			void released.then(() => res.writeHead(200).end(`stuck ${req.url}`));
		});
		const fastPaths = ['/f1', '/f2', '/f3', '/f4'];
		const fast = await fx.serve((req, res) => {
			res.writeHead(200).end(`fast ${req.url}`);
			if (fast.requests.length === fastPaths.length) release('fast host');
		});
		const stuckUrls = Array.from({ length: 70 }, (_, i) => stuck.url(`/s${i}`));
		const fastUrls = fastPaths.map((path) => fast.url(path));

		try {
			const run = await sweepRun(fx.dir, [...stuckUrls, ...fastUrls], ['--concurrency', '2', '--per-host', '1']);
			expect(run.status).toBe(0);
			expect(await released).toBe('fast host');
			expect(run.verdicts).toHaveLength(74);
			expect(run.verdicts.slice(0, 4).map((verdict) => verdict.url)).toEqual(fastUrls);
		} finally {
			clearTimeout(fallback);
		}
	}, 30_000);

	it('reads on past lines that wait a second or more to retry', async () => {
		// 70 lines for a host that answers 503 with Retry-After: 2 the first time, then 4 for a fast host.
		// The 70 retry waits happen outside the request slots, but without parking they fill the line
		// window, and the fast host's lines are read only when the retries come back.
		const log: string[] = [];
		const seen = new Set<string>();
		const busy = await fx.serve((req, res) => {
			const again = seen.has(req.url!);
			seen.add(req.url!);
			log.push(again ? 'retry' : 'busy');
			if (again) res.writeHead(200).end(`busy ${req.url}`);
			else res.writeHead(503, { 'retry-after': '2' }).end();
		});
		const fast = await fx.serve((req, res) => {
			log.push('fast');
			res.writeHead(200).end(`fast ${req.url}`);
		});
		const busyUrls = Array.from({ length: 70 }, (_, i) => busy.url(`/b${i}`));
		const fastUrls = ['/f1', '/f2', '/f3', '/f4'].map((path) => fast.url(path));

		const run = await sweepRun(fx.dir, [...busyUrls, ...fastUrls], ['--concurrency', '2', '--per-host', '1', '--retries', '1']);
		expect(run.status).toBe(0);
		expect(run.verdicts).toHaveLength(74);
		expect(log.filter((entry) => entry === 'fast')).toHaveLength(4);
		expect(log.lastIndexOf('fast')).toBeLessThan(log.indexOf('retry'));
	}, 30_000);
});
