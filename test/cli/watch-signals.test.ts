import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';
import { startWatchOrigin, type OriginHit, type WatchOrigin } from '../helpers/watch-origin.js';
import { waitFor } from '../helpers/wait-for.js';

const HOUR = 3_600_000;
/** The valve's high water (config/defaults.ts): the most URLs claimed and not yet out. */
const HIGH_WATER = 64;
const QUIET = ['--robots', 'ignore', '--audit', '0', '--ndjson', '-q'];

describe('revisit watch and signals (LevelDB store)', () => {
	let origin: WatchOrigin;
	let store: { dir: string; cleanup(): Promise<void> };
	const paths = (n: number) => Array.from({ length: n }, (_, i) => `/p${i}`);
	const pages = (hits: OriginHit[]) => hits.filter((hit) => hit.path.startsWith('/p'));
	beforeEach(async () => {
		store = await tempDir();
	});
	afterEach(async () => {
		await origin?.close();
		await store.cleanup();
	});
	const stored = async (): Promise<Map<string, Record<string, unknown>>> => {
		const dump = ndjson((await runCli(['export', '--store', store.dir])).stdout);
		return new Map(dump.filter((row) => row.kind === 'url').map((row) => [row.key as string, row.value as Record<string, unknown>]));
	};

	it.each(['SIGTERM', 'SIGINT'] as const)(
		'%s: the checks in flight finish and are committed, nothing new starts, exit 0',
		async (signal) => {
			origin = await startWatchOrigin(300);
			const urls = paths(200).map((path) => origin.url(path));
			const watch = spawnCli(['watch', '--store', store.dir, '--concurrency', '4', '--rate', '100/s', ...QUIET], urls.join('\n'));
			await waitFor(() => pages(origin.hits).length >= 8 && origin.inFlight > 0, 'checks in flight');
			watch.child.kill(signal);
			const sentAt = Date.now();
			const { status, signal: killedBy, stdout } = await watch.done;
			expect(killedBy).toBeNull();
			expect(status).toBe(0);

			const requested = new Set(pages(origin.hits).map((hit) => origin.url(hit.path)));
			// Every answer was waited for, and every URL asked was judged and printed (all are new).
			expect(origin.hits.filter((hit) => hit.aborted)).toEqual([]);
			const printed = ndjson(stdout);
			expect(new Set(printed.map((verdict) => verdict.url))).toEqual(requested);
			expect(printed.every((verdict) => verdict.reason === 'new')).toBe(true);
			// It stopped: only what had been claimed (at most the valve's high water) went out after the signal.
			expect(pages(origin.hits).filter((hit) => hit.at > sentAt).length).toBeLessThanOrEqual(HIGH_WATER);
			expect(requested.size).toBeLessThan(urls.length);
			// The store holds a record, with its validator, for each URL printed, and none for the rest.
			const records = await stored();
			expect(new Set(records.keys())).toEqual(requested);
			for (const record of records.values()) expect(record.etag).toBe('"0"');
		},
		30_000,
	);

	it('--until stops with exit 0 once the schedule reaches it', async () => {
		origin = await startWatchOrigin(0);
		const urls = paths(5).map((path) => origin.url(path));
		// Every interval is exactly 1h of the schedule, 1 s of wall time: checks at 0 and 1h, and perhaps just at 2h.
		// Requests are counted as checks: no --verify-every download (its day drawn from the URL's random port) adds one.
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
			'--until',
			'2h',
			'--rate',
			'100/s',
			'--verify-every',
			'off',
			...QUIET,
		];
		const { status, signal, stderr } = await spawnCli([...args], urls.join('\n')).done;
		expect(signal).toBeNull();
		expect(status).toBe(0);
		expect(stderr).not.toContain('stopped by');
		for (const path of paths(5)) {
			const checks = origin.hits.filter((hit) => hit.path === path).length;
			expect(checks).toBeGreaterThanOrEqual(2);
			expect(checks).toBeLessThanOrEqual(3);
		}
	}, 30_000);

	it('kill -9 mid-run: after a restart every URL is checked again, every change made while down is reported, ' +
		'and only the URLs claimed at the kill are checked again early', async () => {
		const SCALE = 400;
		const CONCURRENCY = 4;
		origin = await startWatchOrigin(400);
		const all = paths(40);
		const urls = all.map((path) => origin.url(path));
		// Every interval is exactly 1h of the schedule (9 s of wall time), at 90 checks an hour (10 a second of wall time), 4 in flight.
		const start = Date.parse('2030-01-01T00:00:00Z');
		const args = (now: number) => [
			'watch',
			'--store',
			store.dir,
			'--now',
			String(now),
			'--time-scale',
			String(SCALE),
			'--min-interval',
			'1h',
			'--max-interval',
			'1h',
			'--rate',
			'90/h',
			'--concurrency',
			String(CONCURRENCY),
			'--per-host',
			String(CONCURRENCY),
			...QUIET,
		];
		const firstWall = Date.now();
		const first = spawnCli(args(start), urls.join('\n'));
		await waitFor(() => pages(origin.hits).length >= 24 && origin.inFlight >= 2, 'the first run to be under way');
		first.child.kill('SIGKILL');
		const killedAt = Date.now();
		const killed = await first.done;
		expect(killed.signal).toBe('SIGKILL');
		const before = pages(origin.hits).filter((hit) => hit.at <= killedAt);
		const inFlightAtKill = before.filter((hit) => hit.ended === undefined || hit.ended > killedAt).length;

		// While it is down, pages whose check finished before the kill change.
		const answered = [...new Set(before.filter((hit) => hit.ended !== undefined && hit.ended < killedAt - 100).map((hit) => hit.path))];
		const changed = answered.slice(0, 6);
		expect(changed).toHaveLength(6);
		for (const path of changed) origin.change(path);

		// The restart's schedule clock goes on from where the first one was.
		const restartWall = Date.now();
		const second = spawnCli(args(start + (restartWall - firstWall) * SCALE), urls.join('\n'));
		const after = () => pages(origin.hits).filter((hit) => hit.at > killedAt);
		const reported = () =>
			new Set(
				ndjson(second.stdout())
					.filter((verdict) => verdict.changed === true && verdict.reason !== 'new')
					.map((verdict) => new URL(verdict.url as string).pathname),
			);
		try {
			await waitFor(
				() => new Set(after().map((hit) => hit.path)).size === all.length && changed.every((path) => reported().has(path)),
				'every URL checked again and every change reported',
				25_000,
			);
		} finally {
			second.child.kill('SIGTERM');
		}
		const { status } = await second.done;
		expect(status).toBe(0);

		// No URL dropped out of the schedule; every change made while it was down came out.
		expect(new Set(after().map((hit) => hit.path))).toEqual(new Set(all));
		for (const path of changed) expect(reported()).toContain(path);
		// A check repeated because of the kill: a URL asked again sooner than its interval (1h: 9 s of wall time) after it was asked before the kill.
		const lastBefore = new Map(before.map((hit) => [hit.path, hit.at]));
		const repeated = all.filter((path) => {
			const was = lastBefore.get(path);
			const again = after().find((hit) => hit.path === path);
			return was !== undefined && again !== undefined && again.at - was < ((HOUR / SCALE) * 2) / 3;
		});
		expect(inFlightAtKill).toBeGreaterThan(0);
		// The in-flight limit: on a schedule one process holds, an origin's claims are two per --per-host place (src/watch/run.ts).
		expect(repeated.length).toBeLessThanOrEqual(2 * CONCURRENCY);
	}, 60_000);
	it('SIGHUP reads the sitemaps again: a URL added since is watched, one dropped leaves the schedule', async () => {
		let listed = ['/p0', '/p1'];
		origin = await startWatchOrigin(0);
		const sitemap = await startServer((req, res) => {
			const urls = listed.map((path) => `<url><loc>${origin.url(path)}</loc></url>`).join('');
			res
				.writeHead(200, { 'content-type': 'application/xml' })
				.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
		});
		try {
			const watch = spawnCli(
				['watch', '--store', store.dir, '--sitemap', sitemap.url('/sitemap.xml'), '--sitemap-every', '30d', '--rate', '20/s', '--time-scale', '600', ...QUIET],
				'',
			);
			await waitFor(() => pages(origin.hits).some((hit) => hit.path === '/p1'), 'the first reading');
			listed = ['/p0', '/p2'];
			watch.child.kill('SIGHUP');
			const sentAt = Date.now();
			await waitFor(() => pages(origin.hits).some((hit) => hit.path === '/p2'), 'the URL the second reading added');
			// Read once at the start and once on SIGHUP: the 30-day timer never fired.
			expect(sitemap.requests.filter((request) => request.path === '/sitemap.xml')).toHaveLength(2);
			expect(
				pages(origin.hits)
					.filter((hit) => hit.path === '/p2')
					.every((hit) => hit.at >= sentAt),
			).toBe(true);
			// /p1 is out of the schedule: after a moment (minutes of the schedule's clock), only /p0 and /p2 are checked.
			await new Promise((resolve) => setTimeout(resolve, 1500));
			const quietFrom = Date.now();
			await new Promise((resolve) => setTimeout(resolve, 1500));
			watch.child.kill('SIGTERM');
			const { status, stderr } = await watch.done;
			expect(status).toBe(0);
			// The SIGHUP's reading says what it found.
			expect(stderr).toContain(`${sitemap.url('/sitemap.xml')} read again: 1 added, 1 removed, 1 unchanged`);
			expect(pages(origin.hits).filter((hit) => hit.at >= quietFrom && hit.path === '/p1')).toEqual([]);
		} finally {
			await sitemap.close();
		}
	}, 30_000);
});
