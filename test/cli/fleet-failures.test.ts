import { afterAll, beforeAll, expect, it } from 'vitest';
import { ndjson, runCli, spawnCli } from '../helpers/cli.js';
import { startWorkers, type TestWorker } from '../helpers/fleet.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { slowOrigin, type TestServer } from '../helpers/server.js';

let unique = 0;
// Short leases, so that a lost worker's requests move on within the test's time.
const SHORT = ['--timeout', '1', '--lease', '2', '--audit', '0'];

const lines = (text: string) => text.split('\n').filter(Boolean);
const paths = (server: TestServer, n: number, name = 'p') => Array.from({ length: n }, (_, i) => server.url(`/${name}${i}`));

describeRedis('a Redis fleet when things fail', () => {
	let redis: TestRedis;
	const started: TestWorker[] = [];
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(async () => {
		await Promise.all(started.map((worker) => worker.kill()));
		await redis?.stop();
	});
	const store = () => redis.url(`fail${process.pid}.${++unique}:`);
	const workers = async (url: string, n: number, extra: string[] = []) => {
		const made = await startWorkers(url, n, extra);
		started.push(...made);
		return made;
	};

	it('a worker SIGKILLed mid-run loses nothing: every URL once, and the store has them all', async () => {
		const url = store();
		const { server } = await slowOrigin(100);
		try {
			const [victim] = await workers(url, 3, ['--concurrency', '4']);
			const input = paths(server, 60);
			const run = runCli(['sweep', '--store', url, '--workers', '--per-host', '12', ...SHORT], input.join('\n'));
			await expect.poll(() => server.requests.length, { timeout: 30_000 }).toBeGreaterThan(10);
			await victim!.kill();
			const { status, stdout } = await run;
			expect(status).toBe(0);
			expect(lines(stdout).sort()).toEqual([...input].sort());
			expect(lines((await runCli(['sweep', '--store', url, '--workers', '-q', ...SHORT], input.join('\n'))).stdout)).toEqual([]);
		} finally {
			await server.close();
		}
	});

	it('a worker paused past its lease gets its late answers refused, and the origin never sees more than --per-host', async () => {
		const url = store();
		const { server, seen } = await slowOrigin(200);
		try {
			const [paused] = await workers(url, 1, ['--concurrency', '4', '--id', `paused-${process.pid}`]);
			const input = paths(server, 30);
			const run = runCli(['sweep', '--store', url, '--workers', '--per-host', '2', ...SHORT], input.join('\n'));
			await expect.poll(() => server.requests.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
			paused!.child.kill('SIGSTOP');
			await workers(url, 1, ['--concurrency', '4']);
			await new Promise((resolve) => setTimeout(resolve, 3000));
			paused!.child.kill('SIGCONT');
			const { status, stdout } = await run;
			expect(status).toBe(0);
			expect(lines(stdout).sort()).toEqual([...input].sort());
			expect(seen.most).toBeLessThanOrEqual(2);
			// Its heartbeat (every 2 s) reports the answers Redis refused under their stale tokens.
			await expect
				.poll(
					async () => {
						const row = ndjson((await runCli(['workers', '--store', url, '--json'])).stdout).find((worker) => worker.id === `paused-${process.pid}`);
						return Number(row?.refused ?? 0);
					},
					{ timeout: 6000 },
				)
				.toBeGreaterThan(0);
		} finally {
			await server.close();
		}
	});

	it('a URL that kills its worker every time ends as a DELIVERY_LIMIT error after --max-deliveries, the rest judged', async () => {
		const url = store();
		const victims: TestWorker[] = [];
		let replacing = false;
		const { server } = await slowOrigin(20, (path) => {
			// What a poison page does to a worker: here, the test kills every worker that could have asked, and starts fresh ones.
			if (path !== '/poison' || replacing) return;
			replacing = true;
			void Promise.all(victims.splice(0).map((worker) => worker.kill()))
				.then(() => workers(url, 1, ['--concurrency', '2']))
				.then((fresh) => {
					victims.push(...fresh);
					replacing = false;
				});
		});
		try {
			victims.push(...(await workers(url, 1, ['--concurrency', '2'])));
			const input = [...paths(server, 5), server.url('/poison')];
			const { status, stdout } = await runCli(
				['sweep', '--store', url, '--workers', '--ndjson', '--all', '--per-host', '1', '--max-deliveries', '2', ...SHORT],
				input.join('\n'),
			);
			expect(status).toBe(1);
			const verdicts = ndjson(stdout);
			expect(verdicts.map((verdict) => verdict.url).sort()).toEqual([...input].sort());
			expect(verdicts.find((verdict) => verdict.url === server.url('/poison'))).toMatchObject({ reason: 'error', error: { code: 'DELIVERY_LIMIT' } });
			expect(verdicts.filter((verdict) => verdict.reason === 'new')).toHaveLength(5);
			expect(server.seen('/poison')).toHaveLength(2);
		} finally {
			await server.close();
		}
	});

	it('a coordinator SIGKILLed mid-run loses nothing: the next run reports every change it had not printed', async () => {
		const url = store();
		const { server } = await slowOrigin(50);
		try {
			await workers(url, 2, ['--concurrency', '4']);
			const input = paths(server, 80);
			const first = spawnCli(['sweep', '--store', url, '--workers', '--per-host', '4', '-q', ...SHORT], input.join('\n'));
			await expect.poll(() => lines(first.stdout()).length, { timeout: 10000 }).toBeGreaterThan(10);
			first.child.kill('SIGKILL');
			const killed = await first.done;
			expect(killed.signal).toBe('SIGKILL');
			const printed = lines(killed.stdout);
			expect(printed.length).toBeLessThan(80);
			const next = await runCli(['sweep', '--store', url, '--workers', '-q', ...SHORT], input.join('\n'));
			expect(next.status).toBe(0);
			const reported = new Set([...printed, ...lines(next.stdout)]);
			expect([...reported].sort()).toEqual([...input].sort());
		} finally {
			await server.close();
		}
	});
});
