import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, spawnCli, tempDir } from '../helpers/cli.js';
import { getWithHost } from '../helpers/listening.js';
import { startWatchOrigin, type WatchOrigin } from '../helpers/watch-origin.js';
import { waitFor } from '../helpers/wait-for.js';

const QUIET = ['--robots', 'ignore', '--audit', '0', '--ndjson', '-q'];

interface Row {
	start: string;
	urls: number;
	changed: number;
	live?: boolean;
	unfinished?: boolean;
}

describe('reading the store while a watch runs (LevelDB)', () => {
	let origin: WatchOrigin;
	let store: { dir: string; cleanup(): Promise<void> };
	let work: { dir: string; cleanup(): Promise<void> };
	const urls = (n: number) => Array.from({ length: n }, (_, i) => origin.url(`/p${i}`));
	beforeEach(async () => {
		origin = await startWatchOrigin(0);
		store = await tempDir();
		work = await tempDir();
	});
	afterEach(async () => {
		await origin.close();
		await store.cleanup();
		await work.cleanup();
	});
	const cli = (args: string[]) => spawnCli([...args, '--store', store.dir], '').done;
	const history = async (): Promise<Row[]> => ndjson((await cli(['history', '--json'])).stdout) as unknown as Row[];

	it('history, stats, due, report --html and export answer during the watch, with its current hour as a live row', async () => {
		const watchedAt = Date.now();
		const watch = spawnCli(['watch', '--store', store.dir, '--rate', '100/s', ...QUIET], urls(5).join('\n'));
		try {
			await waitFor(() => ndjson(watch.stdout()).length >= 5, 'the five first checks');
			// The live row counts each check once it is committed: a moment after it is printed.
			await waitFor(async () => (await history()).at(-1)?.urls === 5, 'the live row to count the five checks');

			const table = await cli(['history']);
			expect(table).toMatchObject({ status: 0, stderr: '' });
			expect(table.stdout).toMatch(/^START +TOOK/);
			expect(table.stdout.split('\n')[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +\S+ live +5 +5 /);
			const rows = await history();
			expect(rows).toHaveLength(1);
			expect(rows[0]).toMatchObject({ urls: 5, changed: 5, live: true });
			expect(Date.parse(rows[0]!.start)).toBeGreaterThanOrEqual(watchedAt - 1000);

			const stats = await cli(['stats', '--json']);
			expect(stats.status).toBe(0);
			expect(ndjson(stats.stdout)).toEqual([expect.objectContaining({ host: new URL(origin.url('/')).origin, urls: 5 })]);

			const due = await cli(['due', '--json']);
			expect(due).toMatchObject({ status: 0, stderr: '' });

			const page = path.join(work.dir, 'report.html');
			const report = await cli(['report', '--html', page]);
			expect(report.status).toBe(0);
			expect(report.stderr).toContain('1 run, 5 URLs, 5 changed');
			const html = await readFile(page, 'utf8');
			expect(html).toContain(`run of ${rows[0]!.start}, the last under way (live)`);
			for (const url of urls(5)) expect(html).toContain(url);

			const dump = await cli(['export']);
			expect(dump.status).toBe(0);
			const lines = ndjson(dump.stdout);
			expect(
				lines
					.filter((line) => line.kind === 'url')
					.map((line) => line.key)
					.sort(),
			).toEqual(urls(5).sort());
			expect(lines.filter((line) => line.kind === 'run')).toEqual([expect.objectContaining({ value: expect.objectContaining({ urls: 5, live: true }) })]);

			// A hand override goes through the watch: stored at once, and kept by the watch's own writes after.
			const host = new URL(origin.url('/')).origin;
			const set = await cli(['hosts', 'set', host, '--mode', 'hash-only']);
			expect(set).toMatchObject({ status: 0, stderr: `revisit: ${host}: mode set to hash-only\n` });
			expect(ndjson((await cli(['stats', '--json'])).stdout)).toEqual([expect.objectContaining({ host, overridden: true })]);
			// Any other write is refused, naming why.
			const forget = await cli(['noise', 'forget', host]);
			expect(forget.status).toBe(2);
			expect(forget.stderr).toBe(
				`revisit: store ${store.dir} is locked: a running revisit watch holds it (history, report, log, diff, stats, due, ` +
					`export and hosts set go through the watch); stop the watch to change it\n`,
			);
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);
		// Stopped: the socket is gone, and the hour's row is finished.
		expect(existsSync(path.join(store.dir, 'watch.sock'))).toBe(false);
		const after = await history();
		expect(after).toHaveLength(1);
		expect(after[0]).toMatchObject({ urls: 5, changed: 5 });
		expect(after[0]!.live).toBeUndefined();
		expect(after[0]!.unfinished).toBeUndefined();
		expect(ndjson((await cli(['stats', '--json'])).stdout)).toEqual([expect.objectContaining({ overridden: true })]);
	}, 60_000);

	it('a watch killed with -9 leaves its hour in history, up to its last committed batch', async () => {
		// An hour of the schedule a wall second: each page is checked again every second or so (the rate is in the schedule's clock too).
		const args = [
			'watch',
			'--store',
			store.dir,
			'--time-scale',
			'3600',
			'--min-interval',
			'1h',
			'--max-interval',
			'1h',
			'--rate',
			'100000/s',
			'--all',
			...QUIET,
		];
		const watch = spawnCli(args, urls(5).join('\n'));
		// Three rounds of checks: the row has been written with more than one commit.
		await waitFor(() => ndjson(watch.stdout()).length >= 15, 'three rounds of checks');
		watch.child.kill('SIGKILL');
		const { signal } = await watch.done;
		expect(signal).toBe('SIGKILL');
		const checked = ndjson(watch.stdout()).length;

		const rows = await history();
		// One hour of the schedule lasts 30 s of wall time at least: the watch was killed in its first.
		expect(rows).toHaveLength(1);
		expect(rows[0]).toMatchObject({ unfinished: true });
		expect(rows[0]!.live).toBeUndefined();
		// The row is written with the commits, a second apart at most: it counts all but the last second's checks.
		expect(rows[0]!.urls).toBeGreaterThanOrEqual(10);
		expect(rows[0]!.urls).toBeLessThanOrEqual(checked);
		const table = await cli(['history']);
		expect(table.stdout.split('\n')[1]).toMatch(/ unfinished /);

		// A watch started again replaces the socket the killed one left, and shows its own hour live beside it.
		const again = spawnCli(args, urls(5).join('\n'));
		try {
			await waitFor(() => ndjson(again.stdout()).length >= 1, 'a check by the second watch');
			await waitFor(async () => (await history()).length === 2, 'the second watch to answer history');
			const both = await history();
			expect(both[0]).toMatchObject({ unfinished: true });
			expect(both[1]).toMatchObject({ live: true });
		} finally {
			again.child.kill('SIGTERM');
		}
		expect((await again.done).status).toBe(0);
	}, 60_000);

	it("the live report at / shows the hour's checks and changes from the first checks on, not after the hour", async () => {
		const watch = spawnCli(
			['watch', '--store', store.dir, '--rate', '100/s', '--listen', '127.0.0.1:0', '--robots', 'ignore', '--audit', '0', '--ndjson'],
			urls(3).join('\n'),
		);
		let stderr = '';
		watch.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		try {
			await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+\//.test(stderr), 'the server to listen');
			const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr)![1]);
			await waitFor(() => ndjson(watch.stdout()).length >= 3, 'the three first checks');
			// A page is built at most every 5 s: ask until one built after the checks shows them.
			let page = '';
			await waitFor(async () => {
				page = (await getWithHost(port, '/', `127.0.0.1:${port}`)).body;
				return urls(3).every((url) => page.includes(url));
			}, 'the page to show the three changes');
			expect(page).toContain(', the last under way (live)');
			expect(page).not.toContain('no runs recorded');
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);
	}, 60_000);
});
