import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
const START = Date.parse('2030-01-01T00:00:00Z');

// A small simulated site: /fast changes every simulated day, /slow never; the test sets
// `day` and passes the same moment to --now.
describe('revisit sweep --budget, --host-budget, --now; revisit due', () => {
	let a: TestServer;
	let b: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let day = 0;
	const handler = (req: { url?: string }, res: { end(body: string): void }) => res.end(`${req.url} ${req.url!.startsWith('/fast') ? day : 0}`);
	beforeEach(async () => {
		day = 0;
		a = await startServer(handler);
		b = await startServer(handler);
		store = await tempDir();
	});
	afterEach(async () => {
		await a.close();
		await b.close();
		await store.cleanup();
	});
	const paths = [...Array.from({ length: 5 }, (_, i) => `/fast${i}`), ...Array.from({ length: 15 }, (_, i) => `/slow${i}`)];
	const input = (server = a, list = paths) => list.map((path) => `${server.url(path)}\n`).join('');
	const at = (d: number) => String(START + d * DAY);
	const sweep = (d: number, args: string[], stdin = input()) => {
		day = d;
		return runCli(['sweep', '--store', store.dir, '--audit', '0', '--verify-every', 'off', '--now', at(d), ...args], stdin);
	};
	/** Paths requested on `server` since `from` requests. */
	const requestedSince = (server: TestServer, from: number) =>
		new Set(
			server.requests
				.slice(from)
				.map((request) => request.path)
				.filter((path) => path !== '/robots.txt'),
		);

	it('never checks more than the budget, says how many were left for later, and learns which pages change', async () => {
		for (let d = 0; d < 12; d++) {
			const before = a.requests.length;
			const run = await sweep(d, ['--budget', '4']);
			expect(run.status).toBe(0);
			expect(requestedSince(a, before).size).toBeLessThanOrEqual(4);
			expect(run.stderr).toContain('16 left for later (--budget)');
		}
		const due = ndjson((await runCli(['due', '--store', store.dir, '--now', at(12), '--json'])).stdout);
		const rate = (prefix: string) => Math.min(...due.filter((entry) => String(entry.url).includes(prefix)).map((entry) => entry.rate as number));
		expect(rate('/fast')).toBeGreaterThan(5 * Math.max(...due.filter((entry) => String(entry.url).includes('/slow')).map((entry) => entry.rate as number)));
		expect(rate('/fast')).toBeGreaterThan(0);
	});

	it('checks new URLs first, within the budget, in input order', async () => {
		await sweep(0, ['-q']);
		const fresh = ['/new1', '/new2', '/new3'];
		const before = a.requests.length;
		const run = await sweep(1, ['-q', '--budget', '2'], input(a, [...paths, ...fresh]));
		expect([...requestedSince(a, before)].sort()).toEqual(['/new1', '/new2']);
		expect(run.status).toBe(0);
	});

	it('verifies at the checks the budget chose, and gives its own check only to a URL a period past its verification bound', async () => {
		await runCli(['sweep', '--store', store.dir, '-q', '--audit', '0', '--verify-every', '30d', '--now', at(0)], input());
		const db = await LevelStore.open(store.dir);
		const records = await db.getMany(paths.map((path) => a.url(path)));
		await db.close();
		// A new URL's first verification is spread over the period: by day 40, those due by day 10 are a period past it.
		const overdue = paths.filter((_, i) => records[i]!.verifyBy! + 30 * DAY <= START + 40 * DAY).map((path) => a.url(path));
		expect(overdue.length).toBeGreaterThan(0);
		expect(overdue.length).toBeLessThan(paths.length);
		const due = ndjson(
			(await runCli(['due', '--store', store.dir, '--now', at(40), '--verify-every', '30d', '--json', '--budget', String(overdue.length)])).stdout,
		);
		expect(
			due
				.filter((entry) => entry.tier === 'verify')
				.map((entry) => entry.url)
				.sort(),
		).toEqual([...overdue].sort());
		expect(
			due
				.filter((entry) => !entry.later)
				.map((entry) => entry.url)
				.sort(),
		).toEqual([...overdue].sort());
		// At day 20 none is a period past its bound: the budget ranks by value, and no URL has a check of its own.
		const early = ndjson((await runCli(['due', '--store', store.dir, '--now', at(20), '--verify-every', '30d', '--json', '--budget', '3'])).stdout);
		expect(early.filter((entry) => entry.tier === 'verify')).toEqual([]);

		const before = a.requests.length;
		day = 40;
		await runCli(['sweep', '--store', store.dir, '-q', '--audit', '0', '--verify-every', '30d', '--now', at(40), '--budget', String(overdue.length)], input());
		expect([...requestedSince(a, before)].map((path) => a.url(path)).sort()).toEqual([...overdue].sort());
		// Every other URL is past its bound (all first moments fall within 30 days) and was left for later: stats says so.
		const stats = JSON.parse((await runCli(['stats', '--store', store.dir, '--json'])).stdout);
		expect(stats).toMatchObject({ pastBound: paths.length - overdue.length });
		expect(stats.reason).toContain(`${paths.length - overdue.length} URLs past the --verify-every bound`);
	});

	it('keeps each origin within --host-budget', async () => {
		const both = input(a) + input(b);
		const [beforeA, beforeB] = [a.requests.length, b.requests.length];
		await sweep(0, ['-q', '--host-budget', '3', '--budget', '100'], both);
		expect(requestedSince(a, beforeA).size).toBe(3);
		expect(requestedSince(b, beforeB).size).toBe(3);
	});

	it('writes the --now time (or $REVISIT_NOW) in the records, and shows rate in --ndjson', async () => {
		const run = await sweep(0, ['--ndjson', '--all'], input(a, ['/fast0']));
		expect(ndjson(run.stdout)[0]).toMatchObject({ reason: 'new', rate: expect.any(Number) });
		day = 3;
		await runCli(['sweep', '--store', store.dir, '-q', '--audit', '0'], input(a, ['/fast0']), { REVISIT_NOW: new Date(START + 3 * DAY).toISOString() });
		const db = await LevelStore.open(store.dir);
		const [record] = await db.getMany([a.url('/fast0')]);
		await db.close();
		expect(record!.lastChecked).toBeGreaterThanOrEqual(START + 3 * DAY);
		expect(record!.lastChecked).toBeLessThan(START + 3 * DAY + 60_000);
		expect(record!.checks).toEqual([-3 * 24 * 60]);
	});

	it('lists with revisit due --budget what the next run would check, and with --later the rest', async () => {
		for (let d = 0; d < 3; d++) await sweep(d, ['-q']);
		const picked = (await runCli(['due', '--store', store.dir, '--now', at(4), '--budget', '5'])).stdout.split('\n').filter(Boolean);
		const later = (await runCli(['due', '--store', store.dir, '--now', at(4), '--budget', '5', '--later'])).stdout.split('\n').filter(Boolean);
		expect(picked).toHaveLength(5);
		expect(later).toHaveLength(15);
		expect(picked.every((url) => url.includes('/fast'))).toBe(true);
		const before = a.requests.length;
		await sweep(4, ['-q', '--budget', '5']);
		expect([...requestedSince(a, before)].map((path) => a.url(path)).sort()).toEqual([...picked].sort());
	});

	it('under a budget, verifies with one unconditional request, where without one it asks conditionally and audits the 304', async () => {
		const tagged = await startServer((req, res) => {
			const etag = `"${req.url}"`;
			if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
			res.writeHead(200, { etag }).end(`${req.url} always`);
		});
		try {
			const list = input(tagged);
			const run = (d: number, args: string[]) =>
				runCli(['sweep', '--store', store.dir, '-q', '--audit', '0', '--verify-every', '30d', '--now', at(d), ...args], list);
			await run(0, []);
			// Day 31: every URL's first verification (within 30 days) is due.
			let before = tagged.requests.length;
			await run(31, ['--budget', String(paths.length)]);
			const budgeted = tagged.requests.slice(before).filter((request) => request.path !== '/robots.txt');
			expect(budgeted).toHaveLength(paths.length);
			expect(budgeted.every((request) => request.headers['if-none-match'] === undefined)).toBe(true);

			await store.cleanup();
			store = await tempDir();
			await run(0, []);
			before = tagged.requests.length;
			await run(31, []);
			const unbudgeted = tagged.requests.slice(before).filter((request) => request.path !== '/robots.txt');
			expect(unbudgeted).toHaveLength(2 * paths.length);
			expect(unbudgeted.filter((request) => request.headers['if-none-match'] !== undefined)).toHaveLength(paths.length);
		} finally {
			await tagged.close();
		}
	});
});
