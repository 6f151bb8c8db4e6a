import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2030-01-01T00:00:00Z');
// A simulated day every 3 wall seconds.
const SCALE = DAY / 3000;

describe('revisit watch', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let wall0 = 0;
	/** The schedule's time as the origin sees it. */
	const scheduleNow = () => T0 + (Date.now() - wall0) * SCALE;
	beforeEach(async () => {
		store = await tempDir();
		server = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(404).end();
			// /fast pages change every 6 simulated hours; /slow pages never.
			const version = req.url!.startsWith('/fast') ? Math.floor((scheduleNow() - T0) / (6 * HOUR)) : 0;
			const etag = `"${version}"`;
			if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
			res.writeHead(200, { etag, 'content-type': 'text/plain' }).end(`${req.url} version ${version}`);
		});
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});
	const pages = [...Array.from({ length: 3 }, (_, i) => `/fast${i}`), ...Array.from({ length: 7 }, (_, i) => `/slow${i}`)];
	const watch = (args: string[], stdin: string) => {
		wall0 = Date.now();
		return runCli(['watch', '--store', store.dir, '--now', String(T0), '--time-scale', String(SCALE), '-q', ...args], stdin);
	};

	it('prints each change as it is found, under the rate, and keeps every URL in the stored schedule', async () => {
		const input = pages.map((page) => `${server.url(page)}\n`).join('');
		const run = await watch(['--rate', '40/d', '--until', '3d'], input);
		expect(run.status).toBe(0);
		const printed = run.stdout.split('\n').filter(Boolean);
		// Slow pages print once, on first sight; fast pages again as their changes are found.
		for (const page of pages.filter((p) => p.startsWith('/slow'))) expect(printed.filter((url) => url === server.url(page))).toHaveLength(1);
		for (const page of pages.filter((p) => p.startsWith('/fast'))) expect(printed.filter((url) => url === server.url(page)).length).toBeGreaterThan(2);
		const checks = server.requests.filter((request) => request.path !== '/robots.txt');
		// The rate bounds the checks, not the audits of their 304s (a second GET, without the
		// ETag, that follows a sample of them): each page's first check is the only other
		// request sent without one.
		const audits = checks.filter((request) => request.headers['if-none-match'] === undefined).length - pages.length;
		// 40 a day over 3 days, and at the start half a wall second's worth caught up (a sixth of
		// a day here: 7). Pull-ahead spends the rate when nothing is due, so about all of it.
		expect(checks.length - audits).toBeLessThanOrEqual(40 * 3 + 7 + 1);
		expect(checks.length - audits).toBeGreaterThan(40 * 3 * 0.4);
		// Fast pages are checked more often than slow ones, once their rates are learnt.
		const count = (prefix: string) => checks.filter((request) => request.path.startsWith(prefix)).length;
		expect(count('/fast') / 3).toBeGreaterThan(count('/slow') / 7);
		// A page's second check sends its ETag back (an audit of a 304, a sample, is sent without).
		for (const page of pages) expect(server.seen(page)[1]?.headers['if-none-match']).toBeDefined();
		const level = await LevelStore.open(store.dir);
		try {
			const queue = await level.dueQueue({ at0: T0, wall0: Date.now(), scale: 0 });
			expect((await queue.stats()).size).toBe(10);
			expect(await queue.has(pages.map((page) => server.url(page)))).toEqual(pages.map(() => true));
		} finally {
			await level.close();
		}
	});

	it('writes its checks to the run history, as runs of the schedule', async () => {
		const run = await watch(['--rate', '200/d', '--until', '6h', '--ndjson', '--all'], `${server.url('/fast0')}\n${server.url('/slow0')}\n`);
		expect(run.status).toBe(0);
		const verdicts = run.stdout.split('\n').filter(Boolean);
		expect(verdicts.length).toBeGreaterThan(2);
		const history = await runCli(['history', '--store', store.dir, '--json']);
		const runs = history.stdout
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line) as { urls: number });
		expect(runs.length).toBeGreaterThanOrEqual(1);
		expect(runs.reduce((sum, row) => sum + row.urls, 0)).toBe(verdicts.length);
	});

	it('takes a URL out of the schedule when the --input file no longer lists it', async () => {
		const list = path.join(store.dir, '..', `${path.basename(store.dir)}-urls.txt`);
		await writeFile(list, `${server.url('/slow0')}\n${server.url('/slow1')}\n`);
		const running = watch(['--rate', '2000/d', '--until', '2d', '--input', list], '');
		// After a simulated day, /slow1 leaves the list.
		await new Promise((resolve) => setTimeout(resolve, 3000));
		await writeFile(list, `${server.url('/slow0')}\n`);
		// The file is read again once it has been still for 200 ms (wall).
		await new Promise((resolve) => setTimeout(resolve, 800));
		const cutAt = server.requests.length;
		const run = await running;
		expect(run.status).toBe(0);
		expect(run.stderr).toContain(`${list} read again: 0 added, 1 removed, 1 unchanged`);
		const late = server.requests.slice(cutAt + 1);
		expect(late.some((request) => request.path === '/slow0')).toBe(true);
		expect(late.some((request) => request.path === '/slow1')).toBe(false);
	});

	it('names the flag of a rate it cannot read, and exits 2', async () => {
		const run = await runCli(['watch', '--store', store.dir, '--rate', '20 a second'], '');
		expect(run.status).toBe(2);
		expect(run.stderr).toContain('--rate must be a number of checks per second, minute, hour or day, such as 20/s');
	});
});
