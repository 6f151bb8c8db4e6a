import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { startWorkers, type TestWorker } from '../helpers/fleet.js';
import { startRedisCluster, type TestCluster } from '../helpers/redis-cluster.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { startServer, type TestServer } from '../helpers/server.js';

let unique = 0;
const SHORT = ['--timeout', '1', '--lease', '2', '--audit', '0'];
const lines = (text: string) => text.split('\n').filter(Boolean);

describeRedis('a Redis fleet when Redis itself fails', () => {
	let redis: TestRedis;
	let server: TestServer;
	const started: TestWorker[] = [];
	beforeAll(async () => {
		redis = await startRedis();
		server = await startServer((req, res) => setTimeout(() => res.writeHead(200, { etag: '"1"' }).end(req.url), 40));
	});
	afterAll(async () => {
		await Promise.all(started.map((worker) => worker.kill()));
		await server?.close();
		await redis?.stop();
	});
	const store = () => redis.url(`down${process.pid}.${++unique}:`);
	const input = (n: number, name: string) => Array.from({ length: n }, (_, i) => server.url(`/${name}${i}`));
	const workers = async (url: string, n: number) => {
		const made = await startWorkers(url, n, ['--concurrency', '4']);
		started.push(...made);
		return made;
	};

	it('Redis paused (SIGSTOP) for 5 s mid-run: the run waits, then completes, every URL once', async () => {
		const url = store();
		await workers(url, 2);
		const urls = input(60, 'stop');
		const run = runCli(['sweep', '--store', url, '--workers', '--per-host', '8', ...SHORT], urls.join('\n'));
		await expect.poll(() => server.requests.filter((r) => r.path.startsWith('/stop')).length, { timeout: 30_000 }).toBeGreaterThan(10);
		process.kill(redis.pid, 'SIGSTOP');
		await new Promise((resolve) => setTimeout(resolve, 5000));
		process.kill(redis.pid, 'SIGCONT');
		const { status, stdout } = await run;
		expect(status).toBe(0);
		expect(lines(stdout).sort()).toEqual([...urls].sort());
	});

	it('Redis restarted mid-run, empty (no queue, no group, no script cache): no NOSCRIPT, nothing printed twice', async () => {
		const url = store();
		await workers(url, 2);
		const urls = input(60, 'restart');
		const run = runCli(['sweep', '--store', url, '--workers', '--per-host', '8', ...SHORT], urls.join('\n'));
		await expect.poll(() => server.requests.filter((r) => r.path.startsWith('/restart')).length, { timeout: 30_000 }).toBeGreaterThan(10);
		await redis.kill();
		await redis.restart();
		const { status, stdout, stderr } = await run;
		expect(stderr).not.toContain('NOSCRIPT');
		expect(status).toBe(0);
		expect(lines(stdout)).toHaveLength(60);
		expect(lines(stdout).sort()).toEqual([...urls].sort());
	});

	it('Redis gone for longer than --redis-timeout: exit 2 with a clear error', async () => {
		const url = store();
		await workers(url, 1);
		const urls = input(60, 'gone');
		const run = spawnCli(['sweep', '--store', url, '--workers', '--per-host', '2', '--redis-timeout', '2s', ...SHORT], urls.join('\n'));
		await expect.poll(() => server.requests.filter((r) => r.path.startsWith('/gone')).length, { timeout: 30_000 }).toBeGreaterThan(4);
		await redis.kill();
		try {
			const { status, stderr } = await run.done;
			expect(status).toBe(2);
			expect(stderr).toMatch(
				/revisit: (Redis at redis:\/\/127\.0\.0\.1:\d+\/0 .*unreachable for \d+ s \(--redis-timeout\)|could not (read from|write to) the Redis store)/,
			);
		} finally {
			await redis.restart();
		}
	});
});

describeRedis('a Redis fleet on a Redis Cluster', () => {
	let cluster: TestCluster;
	let server: TestServer;
	let workers: TestWorker[] = [];
	beforeAll(async () => {
		cluster = await startRedisCluster(3);
		server = await startServer((req, res) => res.writeHead(200, { etag: '"1"' }).end(req.url));
	}, 60_000);
	afterAll(async () => {
		await Promise.all(workers.map((worker) => worker.stop()));
		await server?.close();
		await cluster?.stop();
	});

	it('sweeps with 2 workers (redis+cluster://): everything new, then nothing', async () => {
		const url = cluster.url(`fc${process.pid}:`);
		workers = await startWorkers(url, 2);
		const urls = Array.from({ length: 40 }, (_, i) => server.url(`/c${i}`));
		const first = await runCli(['sweep', '--store', url, '--workers', '--audit', '0'], urls.join('\n'));
		expect(first.status).toBe(0);
		expect(first.stderr).toContain('sent by the Redis fleet');
		expect(lines(first.stdout).sort()).toEqual([...urls].sort());
		const second = await runCli(['sweep', '--store', url, '--workers', '--audit', '0', '-q'], urls.join('\n'));
		expect(second.status).toBe(0);
		expect(lines(second.stdout)).toEqual([]);
	});
});
