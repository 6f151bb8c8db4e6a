import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { BIN, ndjson, runCli, tempDir } from '../helpers/cli.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { startServer, type TestServer } from '../helpers/server.js';

let unique = 0;

describeRedis('the CLI on a Redis store', () => {
	let redis: TestRedis;
	let server: TestServer;
	let dirs: Array<{ dir: string; cleanup(): Promise<void> }>;
	const version = new Map<string, number>();
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(async () => {
		await redis?.stop();
	});
	beforeEach(async () => {
		version.clear();
		dirs = [];
		server = await startServer((req, res) => {
			const tag = `"${version.get(req.url!) ?? 0}"`;
			if (req.headers['if-none-match'] === tag) return void res.writeHead(304, { etag: tag }).end();
			res.writeHead(200, { etag: tag, 'content-type': 'text/plain' }).end(`${req.url} ${tag}`);
		});
	});
	afterEach(async () => {
		await server.close();
		for (const dir of dirs) await dir.cleanup();
	});
	const temp = async (prefix?: string) => {
		const made = await tempDir(prefix);
		dirs.push(made);
		return made.dir;
	};
	const store = () => redis.url(`cli${process.pid}.${++unique}:`);
	const urls = (n: number) => Array.from({ length: n }, (_, i) => server.url(`/p${i}`));

	it('is accepted wherever a store is: sweep, stats, hosts, history, due, prune, export', async () => {
		const url = store();
		const swept = await runCli(['sweep', '--store', url, '-q', '--audit', '0'], urls(5).join('\n'));
		expect(swept).toMatchObject({ status: 0 });
		expect(swept.stdout.split('\n').filter(Boolean)).toHaveLength(5);
		expect((await runCli(['sweep', '--store', url, '-q', '--audit', '0'], urls(5).join('\n'))).stdout).toBe('');
		expect(ndjson((await runCli(['stats', '--store', url, '--json'])).stdout)).toEqual([expect.objectContaining({ host: server.origin, urls: 5 })]);
		expect((await runCli(['hosts', 'set', server.origin, '--mode', 'hash-only', '--store', url])).status).toBe(0);
		expect(ndjson((await runCli(['stats', '--store', url, '--json'])).stdout)[0]).toMatchObject({ mode: 'hash-only', overridden: true });
		expect(ndjson((await runCli(['history', '--store', url, '--json'])).stdout)).toHaveLength(2);
		expect((await runCli(['due', '--store', url, '--ttl', '1s'])).stdout).toBe('');
		expect((await runCli(['prune', '--store', url, '--older-than', '1d'])).stderr).toContain('pruned 0 URL records');
		expect(ndjson((await runCli(['export', '--store', url])).stdout).filter((line) => line.kind === 'url')).toHaveLength(5);
	});

	it('takes a LevelDB export, and the next sweep against Redis reports nothing new', async () => {
		const level = await temp();
		await runCli(['sweep', '--store', level, '-q', '--audit', '0'], urls(20).join('\n'));
		const dump = await runCli(['export', '--store', level]);
		const url = store();
		// 20 URLs, a host, the run row and its detail, and a text blob per distinct page text.
		const lines = ndjson(dump.stdout).slice(1);
		expect(lines.filter((line) => line.kind === 'text').length).toBeGreaterThan(0);
		expect(await runCli(['import', '--store', url], dump.stdout)).toMatchObject({ status: 0, stderr: `revisit: imported ${lines.length} records\n` });
		expect(ndjson((await runCli(['export', '--store', url])).stdout).slice(1)).toEqual(ndjson(dump.stdout).slice(1));
		const next = await runCli(['sweep', '--store', url, '--ndjson', '--all', '-q', '--audit', '0'], urls(20).join('\n'));
		expect(ndjson(next.stdout).map((verdict) => verdict.reason)).toEqual(Array(20).fill('304'));
	});

	it('runs a pipeline file whose store is a redis object', async () => {
		const dir = await temp();
		const file = path.join(dir, 'pipeline.json');
		const url = store();
		await writeFile(file, JSON.stringify({ store: { type: 'redis', url }, source: { type: 'urls', urls: urls(3) }, sinks: [{ type: 'stdout' }] }));
		expect((await runCli(['run', file, '-q'])).stdout.split('\n').filter(Boolean)).toHaveLength(3);
		expect((await runCli(['run', file, '-q'])).stdout).toBe('');
		expect(ndjson((await runCli(['history', '--store', url, '--json'])).stdout)).toHaveLength(2);
	});

	it('pipes sweep --candidates into fetch on one Redis store, the fetch working while the sweep still reads', async () => {
		const url = store();
		const out = await temp('revisit-out-');
		const bin = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
		const shell = spawn('bash', ['-c', `set -o pipefail; ${bin} sweep --candidates -q --store "$STORE" | ${bin} fetch -q --store "$STORE" --out "$OUT"`], {
			env: { ...process.env, STORE: url, OUT: out },
		});
		let stdout = '';
		shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		const closed = new Promise((resolve) => shell.on('close', resolve));
		const [first, ...rest] = urls(10);
		shell.stdin.write(`${first}\n`);
		// With LevelDB the fetch would spool until the sweep's input ends; here it fetches at once.
		for (const deadline = Date.now() + 20_000; !stdout.includes(first!); ) {
			if (Date.now() > deadline) throw new Error(`fetch printed nothing while the sweep was still reading (stdout: ${JSON.stringify(stdout)})`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		shell.stdin.end(`${rest.join('\n')}\n`);
		expect(await closed).toBe(0);
		expect(stdout.split('\n').filter(Boolean).sort()).toEqual(urls(10).sort());
		const index = ndjson(await readFile(path.join(out, 'index.ndjson'), 'utf8'));
		expect(index.map((entry) => entry.url).sort()).toEqual(urls(10).sort());
		expect((await runCli(['sweep', '--candidates', '--store', url, '-q', '--audit', '0'], urls(10).join('\n'))).stdout).toBe('');
	}, 60_000);

	it('fails with exit 2 when Redis is unreachable, naming host and port but not the password', async () => {
		const port = await closedPort();
		const { status, stderr } = await runCli(['stats', '--store', `redis://app:hunter2@127.0.0.1:${port}/0`]);
		expect(status).toBe(2);
		expect(stderr).toContain(`127.0.0.1:${port}`);
		expect(stderr).not.toContain('hunter2');
	});
});

async function closedPort(): Promise<number> {
	const probe = net.createServer();
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
	const { port } = probe.address() as net.AddressInfo;
	await new Promise<void>((resolve) => probe.close(() => resolve()));
	return port;
}
