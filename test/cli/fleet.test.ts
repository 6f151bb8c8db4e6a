import { afterAll, beforeAll, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startWorkers } from '../helpers/fleet.js';
import { startMixedSite, type MixedSite } from '../helpers/mixed-site.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { slowOrigin } from '../helpers/server.js';

// The rotating host's tags count its responses, so they differ between two runs by design.
const rotating = (etag: unknown) => (typeof etag === 'string' && /^"r\d+"$/.test(etag) ? '"r…"' : etag);
const judged = (stdout: string) =>
	ndjson(stdout)
		.map(({ url, changed, reason, status, etag, lastModified, hash }) => ({ url, changed, reason, status, etag: rotating(etag), lastModified, hash }))
		.sort((a, b) => String(a.url).localeCompare(String(b.url)));
// Audits and verification are random or time-spread: off, so that two stores see the same answers.
const SAME = ['--ndjson', '--all', '-q', '--audit', '0', '--verify-every', 'off', '--per-host', '3'];

let unique = 0;

describeRedis('sweep --workers (a Redis fleet)', () => {
	let redis: TestRedis;
	let site: MixedSite;
	beforeAll(async () => {
		redis = await startRedis();
		site = await startMixedSite(30);
	});
	afterAll(async () => {
		await site?.close();
		await redis?.stop();
	});
	const store = () => redis.url(`fleet${process.pid}.${++unique}:`);
	const keys = async (prefix: string) => (await redis.cli(['--scan', '--pattern', `${prefix}*`])).split('\n').filter(Boolean).sort();

	it('gives exactly the output of a local sweep, run after run, on a mixed site (edits, deletions, a lying host)', async () => {
		const url = store();
		const workers = await startWorkers(url, 3, ['--concurrency', '4']);
		const local = await tempDir();
		try {
			for (let round = 0; round < 4; round++) {
				const expected = round === 0 ? site.input().trim().split('\n').sort() : site.step(round);
				const inProcess = await runCli(['sweep', '--store', local.dir, ...SAME], site.input());
				const fleet = await runCli(['sweep', '--store', url, '--workers', ...SAME], site.input());
				expect(fleet.stderr).toBe('');
				expect(fleet.status).toBe(inProcess.status);
				expect(judged(fleet.stdout)).toEqual(judged(inProcess.stdout));
				expect(
					judged(fleet.stdout)
						.filter((verdict) => verdict.changed)
						.map((verdict) => verdict.url),
				).toEqual(expected);
			}
			// Every worker took a share (the figures come with their heartbeats, every 2 s).
			await expect
				.poll(
					async () => {
						const shares = ndjson((await runCli(['workers', '--store', url, '--json'])).stdout)
							.filter((row) => row.type === 'worker')
							.map((row) => Number(row.done));
						return shares.length === 3 && shares.every((done) => done > 0) && shares.reduce((a, b) => a + b, 0) >= 4 * 180;
					},
					{ timeout: 20_000 },
				)
				.toBe(true);
		} finally {
			await Promise.all(workers.map((worker) => worker.stop()));
			await local.cleanup();
		}
	}, 120_000);

	it('holds --per-host and --rate for the whole fleet: an origin never sees more at once from 3 workers', async () => {
		const starts: number[] = [];
		const { server, seen } = await slowOrigin(20, (path) => path.startsWith('/r') && starts.push(performance.now()));
		const url = store();
		const workers = await startWorkers(url, 3, ['--concurrency', '8']);
		try {
			const many = Array.from({ length: 60 }, (_, i) => server.url(`/p${i}`)).join('\n');
			const run = await runCli(['sweep', '--store', url, '--workers', '--per-host', '2'], many);
			expect(run.status).toBe(0);
			expect(run.stdout.trim().split('\n')).toHaveLength(60);
			expect(run.stderr).toMatch(/60 URLs, 60 changed, .*sent by the Redis fleet\n$/);
			expect(seen.most).toBe(2);
			const paced = Array.from({ length: 8 }, (_, i) => server.url(`/r${i}`)).join('\n');
			expect((await runCli(['sweep', '--store', url, '--workers', '--rate', '10', '-q'], paced)).status).toBe(0);
			const gaps = starts.slice(1).map((start, i) => start - starts[i]!);
			// 10 a second is 100 ms apart at the coordinator. What crosses Redis to different
			// workers arrives with their jitter (one late start shortens the next gap; on a
			// loaded machine by 45 ms, seen), but it cannot raise the rate: 8 starts span 7 gaps.
			// Unpaced, all 8 arrive within a few ms.
			expect(starts.at(-1)! - starts[0]!).toBeGreaterThan(7 * 100 - 100);
			expect(Math.min(...gaps)).toBeGreaterThan(20);
		} finally {
			await Promise.all(workers.map((worker) => worker.stop()));
			await server.close();
		}
	}, 60_000);

	it('holds --per-host across two runs that share the fleet at once, and gives every permit back', async () => {
		const { server, seen } = await slowOrigin(30);
		const url = store();
		const prefix = decodeURIComponent(url.split('prefix=')[1]!);
		const workers = await startWorkers(url, 3, ['--concurrency', '8']);
		try {
			const list = (name: string) => Array.from({ length: 60 }, (_, i) => server.url(`/${name}${i}`)).join('\n');
			// Two cron jobs that overlap: each run alone keeps its --per-host; together they must too.
			const runs = await Promise.all(['a', 'b'].map((name) => runCli(['sweep', '--store', url, '--workers', '--per-host', '2', '-q'], list(name))));
			expect(runs.map((run) => run.status)).toEqual([0, 0]);
			expect(runs.map((run) => run.stdout.trim().split('\n').length)).toEqual([60, 60]);
			expect(seen.most).toBe(2);
			expect((await keys(prefix)).filter((key) => key.includes(':host:'))).toEqual([]);
		} finally {
			await Promise.all(workers.map((worker) => worker.stop()));
			await server.close();
		}
	}, 60_000);

	it("removes a run's keys when it ends, and leaves nothing in the queue", async () => {
		const url = store();
		const prefix = decodeURIComponent(url.split('prefix=')[1]!);
		const workers = await startWorkers(url, 2);
		try {
			for (let run = 0; run < 3; run++) expect((await runCli(['sweep', '--store', url, '--workers', '-q'], site.input())).status).toBe(0);
			const fleetKeys = (await keys(prefix)).filter((key) => key.includes('{fleet}'));
			expect(fleetKeys.filter((key) => !key.includes(':worker:'))).toEqual([`${prefix}{fleet}:q`, `${prefix}{fleet}:workers`]);
			expect(await redis.cli(['XLEN', `${prefix}{fleet}:q`])).toBe('0\n');
			expect(await redis.cli(['ZCARD', `${prefix}{fleet}:runs`])).toBe('0\n');
		} finally {
			await Promise.all(workers.map((worker) => worker.stop()));
		}
		// A worker that stops says so: its heartbeat goes with it.
		expect((await keys(prefix)).filter((key) => key.includes(':worker:'))).toEqual([]);
	});

	it('refuses --workers without a Redis store, or with no live worker, with exit 2 and what to do', async () => {
		const local = await tempDir();
		try {
			const level = await runCli(['sweep', '--store', local.dir, '--workers'], site.input());
			expect(level.status).toBe(2);
			expect(level.stderr).toContain('--workers needs a Redis store');
			const none = await runCli(['sweep', '--store', store(), '--workers'], site.input());
			expect(none.status).toBe(2);
			expect(none.stderr).toMatch(/no live workers on redis:\/\/127\.0\.0\.1:\d+\/0.*: start some with revisit worker --store/);
		} finally {
			await local.cleanup();
		}
	});
});
