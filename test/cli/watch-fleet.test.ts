import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ndjson, runCli, spawnCli } from '../helpers/cli.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { loadCpu } from '../helpers/cpu-load.js';
import { startTimedOrigins } from '../helpers/timed-origins.js';
import { startWatchOrigin, type OriginHit, type WatchOrigin } from '../helpers/watch-origin.js';
import { waitFor } from '../helpers/wait-for.js';

// Three `revisit watch` processes on one Redis schedule. Each sends its own User-Agent,
// so the origins can tell whose request each was. The schedule clock is the wall clock
// (no --time-scale): the URLs are all new, so every one is due at once and stays due
// until checked, which keeps the rate binding without waiting for URLs to fall due again.
const NAMES = ['A', 'B', 'C'] as const;
const QUIET = ['--robots', 'ignore', '--audit', '0', '--ndjson', '-q', '--retries', '0'];

const agent = (name: string) => `revisit-fleet-test-${name}`;
const whose = (hit: OriginHit) => String(hit.headers['user-agent']).replace('revisit-fleet-test-', '');

describeRedis('revisit watch: three processes on one Redis store', () => {
	let redis: TestRedis;
	let origins: WatchOrigin[] = [];
	let running: Array<ReturnType<typeof spawnCli>> = [];
	let unique = 0;
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(async () => {
		await redis?.stop();
	});
	afterEach(async () => {
		for (const watch of running) watch.child.kill('SIGKILL');
		await Promise.all(running.map((watch) => watch.done));
		await Promise.all(origins.map((origin) => origin.close()));
		running = [];
		origins = [];
	});

	const prefix = () => `wf${process.pid}.${++unique}:`;
	const listOf = (count: number) => origins.flatMap((origin) => Array.from({ length: count }, (_, i) => origin.url(`/p${i}`)));
	/** Starts the three: the first reads the list on stdin, the others the same list (admission is idempotent). */
	const fleet = (store: string, urls: string[], flags: string[], base: readonly string[] = QUIET) => {
		running = NAMES.map((name) => spawnCli(['watch', '--store', store, '--user-agent', agent(name), ...base, ...flags], urls.join('\n')));
		return running;
	};
	const stopAll = async (watches: Array<ReturnType<typeof spawnCli>>) => {
		for (const watch of watches) watch.child.kill('SIGTERM');
		return Promise.all(watches.map((watch) => watch.done));
	};
	const schedule = async (store: string) => {
		const base = `${store}{due}`;
		const [size, leased, held] = await Promise.all([
			redis.cli(['HLEN', `${base}:place`]),
			redis.cli(['ZCARD', `${base}:lease`]),
			redis.cli(['HLEN', `${base}:held`]),
		]);
		return { size: Number(size), leased: Number(leased), held: Number(held) };
	};

	it('--per-host and --host-rate hold fleet-wide at each origin, as the origin sees them on a loaded machine, ' +
		'and each URL is claimed by one process', async () => {
		// Origins that read arrival times in a process of their own; every core busy besides,
		// so that each process's requests leave it late by an amount of its own.
		const timed = await startTimedOrigins(3, 600);
		const urls = timed.origins.flatMap((origin) => Array.from({ length: 40 }, (_, i) => origin.url(`/p${i}`)));
		const store = prefix();
		const load = loadCpu();
		let results: Awaited<ReturnType<typeof stopAll>>;
		try {
			// 2 in flight per origin and 4 requests a second (250 ms apart): with 600 ms answers, each limit binds.
			// robots.txt and audits as by default: a process's first request at an origin comes a
			// moment before its first page there, and an audit right after the 304 it checks.
			const watches = fleet(
				redis.url(store),
				urls,
				['--per-host', '2', '--host-rate', '4', '--concurrency', '8', '--rate', '100/s'],
				['--robots', 'obey', '--ndjson', '-q'],
			);
			const sentBy = (name: string) => timed.origins.some((origin) => origin.hits.some((hit) => hit.agent === agent(name)));
			await waitFor(() => timed.origins.every((origin) => origin.hits.length >= 20) && NAMES.every(sentBy), 'every process to check at every origin', 40_000);
			results = await stopAll(watches);
		} finally {
			await load.stop();
			await timed.stop();
		}
		expect(results.map((result) => result.status)).toEqual([0, 0, 0]);

		for (const origin of timed.origins) {
			expect(origin.most).toBe(2);
			// 4 a second as the origin saw them, the three processes together (a process's first
			// request included): no more than one per 250 ms over the whole run, and no two close
			// together. A request leaves its process late by the load's lag after its turn, and the
			// next may leave on time, so one gap may shrink by that lag (212 ms was seen at load 15);
			// three processes each pacing only themselves would send 12 a second, gaps near 0.
			const sorted = origin.hits.map((hit) => hit.at).sort((a, b) => a - b);
			const gaps = sorted.slice(1).map((at, i) => at - sorted[i]!);
			expect(gaps.length).toBeGreaterThan(15);
			expect(sorted.length).toBeLessThanOrEqual(Math.floor((sorted.at(-1)! - sorted[0]!) / 250) + 2);
			expect(Math.min(...gaps)).toBeGreaterThanOrEqual(125);
		}
		// All three took part, and no URL was checked twice: each claim went to one process.
		const printed = results.flatMap((result) => ndjson(result.stdout).map((verdict) => verdict.url as string));
		for (const result of results) expect(ndjson(result.stdout).length).toBeGreaterThan(0);
		expect(new Set(printed).size).toBe(printed.length);
		// Every URL is still scheduled, and the stops gave back every claim.
		expect(await schedule(store)).toEqual({ size: urls.length, leased: 0, held: 0 });
	}, 60_000);

	it("--per-host holds fleet-wide as requests in flight: each claim's place goes back when its requests are over, " +
		'and no origin ever sees more than --per-host at once', async () => {
		// Slow answers and a --concurrency well past the places: every process wants more of each origin than --per-host.
		origins = await Promise.all([0, 1].map(() => startWatchOrigin(150)));
		const urls = listOf(40);
		const store = prefix();
		const watches = fleet(redis.url(store), urls, ['--per-host', '2', '--concurrency', '8', '--rate', '1000/s']);
		const sentBy = (name: string) => origins.some((origin) => origin.hits.some((hit) => whose(hit) === name));
		await waitFor(() => origins.every((origin) => origin.hits.length >= 30) && NAMES.every(sentBy), 'every process to check at both origins', 40_000);
		const results = await stopAll(watches);
		expect(results.map((result) => result.status)).toEqual([0, 0, 0]);
		for (const origin of origins) expect(origin.most).toBe(2);
		// Every claim was ended or given back: no place is left taken.
		expect(await schedule(store)).toEqual({ size: urls.length, leased: 0, held: 0 });
		expect(Number(await redis.cli(['HLEN', `${store}{due}:ans`]))).toBe(0);
	}, 60_000);

	it('--rate holds fleet-wide within 5% over 10 s', async () => {
		origins = await Promise.all([0, 1, 2, 3].map(() => startWatchOrigin(20)));
		const urls = listOf(300);
		const store = prefix();
		const watches = fleet(redis.url(store), urls, ['--per-host', '8', '--concurrency', '16', '--rate', '40/s']);
		const hits = () => origins.flatMap((origin) => origin.hits);
		await waitFor(() => NAMES.every((name) => hits().some((hit) => whose(hit) === name)), 'every process to send');
		// A second more of warm-up, then a window of 10 s.
		const from = Date.now() + 1000;
		await new Promise((resolve) => setTimeout(resolve, 11_000));
		const counted = hits().filter((hit) => hit.at >= from && hit.at < from + 10_000);
		const results = await stopAll(watches);
		expect(results.map((result) => result.status)).toEqual([0, 0, 0]);
		expect(counted.length).toBeGreaterThanOrEqual(380);
		expect(counted.length).toBeLessThanOrEqual(420);
		// The rate was spread over the fleet, not spent by one process.
		for (const name of NAMES) expect(counted.filter((hit) => whose(hit) === name).length).toBeGreaterThan(0);
		// Plenty of URLs were still due: the rate bound, not the list.
		expect(new Set(hits().map((hit) => hit.path + hit.headers.host)).size).toBeLessThan(urls.length);
	}, 40_000);

	it('kill -9 one process: its claimed URLs come back after --lease and the others check them; no URL is lost', async () => {
		// A check's timeout well under the lease, as docs/13-watch.md asks, and well over the origin's 400 ms
		// answer on a loaded machine: a check that timed out is an error, not printed, and not checked again soon.
		const LEASE = 6000;
		origins = await Promise.all([0, 1].map(() => startWatchOrigin(400)));
		// Enough URLs that the last process to start (on a loaded machine, seconds after the others) still finds some due.
		const urls = listOf(120);
		const store = prefix();
		const watches = fleet(redis.url(store), urls, [
			'--per-host',
			'8',
			'--concurrency',
			'4',
			'--rate',
			'20/s',
			'--timeout',
			'3',
			'--lease',
			String(LEASE / 1000),
		]);
		const hits = () => origins.flatMap((origin) => origin.hits.map((hit) => ({ ...hit, url: origin.url(hit.path) })));
		await waitFor(
			() => hits().filter((hit) => whose(hit) === 'B').length >= 2 && hits().some((hit) => whose(hit) === 'B' && hit.ended === undefined),
			'B to have checks in flight',
		);
		watches[1]!.child.kill('SIGKILL');
		const killedAt = Date.now();
		const killed = await watches[1]!.done;
		expect(killed.signal).toBe('SIGKILL');
		const cut = hits().filter((hit) => whose(hit) === 'B' && hit.at <= killedAt && (hit.ended === undefined || hit.ended > killedAt));
		expect(cut.length).toBeGreaterThan(0);

		// The others go on; B's URLs cut off mid-check come back once their lease runs out.
		const survivors = [watches[0]!, watches[2]!];
		const printed = () => new Set(survivors.flatMap((watch) => ndjson(watch.stdout()).map((verdict) => verdict.url as string)));
		const byB = new Set(ndjson(killed.stdout).map((verdict) => verdict.url as string));
		// A bound that says it ended rather than hung: some 10 s of work, given room for a machine that runs the whole suite
		// beside other work (25 s ran out there once).
		// On a timeout, what each URL still missing got from the origin, and what the survivors said.
		const missing = () => {
			const left = urls.filter((url) => !(printed().has(url) || byB.has(url)) || cut.some((hit) => hit.url === url && !printed().has(url)));
			const seen = left.map(
				(url) =>
					`${url}: ${
						hits()
							.filter((hit) => hit.url === url)
							.map(
								(hit) =>
									`${whose(hit)} at +${hit.at - killedAt} ms` +
									`${hit.ended === undefined ? ' unanswered' : ` answered +${hit.ended - hit.at} ms`}${hit.aborted ? ' aborted' : ''}`,
							)
							.join(', ') || 'no request'
					}`,
			);
			return (
				`every URL checked, and those cut off checked again; not yet:\n${seen.join('\n')}\n` +
				`A and C said:\n${survivors.map((watch) => watch.stderr().slice(-2000)).join('\n')}`
			);
		};
		await waitFor(() => urls.every((url) => printed().has(url) || byB.has(url)) && cut.every((hit) => printed().has(hit.url)), missing, 60_000);
		const results = await stopAll(survivors);
		expect(results.map((result) => result.status)).toEqual([0, 0]);

		for (const hit of cut) {
			const again = hits().find((other) => other.url === hit.url && other.at > killedAt);
			expect(again, hit.url).toBeDefined();
			expect(['A', 'C']).toContain(whose(again!));
			// Not while B's lease held. The lease runs from B's claim, which the origin does not see: under load a request leaves
			// its process hundreds of ms after its claim (2.75 s to 2.9 s seen here), so half the lease is the bound. A URL taken
			// back at once, the failure this guards against, comes back within ms of the kill.
			expect(again!.at - hit.at).toBeGreaterThanOrEqual(LEASE / 2);
		}
		// Every URL has a record in the store and its place in the schedule; no claim is left.
		const dump = ndjson((await runCli(['export', '--store', redis.url(store)])).stdout);
		const recorded = new Set(dump.filter((row) => row.kind === 'url').map((row) => row.key as string));
		for (const url of urls) expect(recorded, url).toContain(url);
		expect(await schedule(store)).toEqual({ size: urls.length, leased: 0, held: 0 });
	}, 90_000);
});
