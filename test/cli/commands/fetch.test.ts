import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../../src/store/level/store.js';
import { BIN, ndjson, runCli, spawnCli, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const PAGES = 30;

describe('two-phase crawl: sweep --candidates, fetch, crawl', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let out: { dir: string; cleanup(): Promise<void> };
	const version = new Map<string, number>();
	const big = 'x'.repeat(200_000);
	beforeEach(async () => {
		version.clear();
		server = await startServer((req, res) => {
			const tag = `"${version.get(req.url!) ?? 0}"`;
			if (req.headers['if-none-match'] === tag) return void res.writeHead(304, { etag: tag }).end();
			res.writeHead(200, { etag: tag, 'content-type': 'text/plain; charset=utf-8' }).end(req.url === '/big' ? big : `${req.url} v${tag}`);
		});
		store = await tempDir();
		out = await tempDir('revisit-out-');
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
		await out.cleanup();
	});
	const urls = () => Array.from({ length: PAGES }, (_, i) => server.url(`/p${i}`));
	const cli = (args: string[], stdin = '') => runCli([...args, '--store', store.dir, '-q', ...(args[0] === 'fetch' ? [] : ['--audit', '0'])], stdin);
	const index = async () => ndjson(await readFile(path.join(out.dir, 'index.ndjson'), 'utf8').catch(() => ''));

	it('sweep --candidates reads headers only, commits nothing for candidates, and fetch then writes and records them', async () => {
		const candidates = await cli(['sweep', '--candidates', '--ndjson'], `${server.url('/big')}\n`);
		expect(ndjson(candidates.stdout)).toEqual([expect.objectContaining({ url: server.url('/big'), changed: true, reason: 'candidate', bytes: 0 })]);
		const db = await LevelStore.open(store.dir);
		expect(await db.getMany([server.url('/big')])).toEqual([undefined]);
		await db.close();

		const fetched = await cli(['fetch', '--out', out.dir], `${server.url('/big')}\n`);
		expect(fetched).toMatchObject({ status: 0, stdout: `${server.url('/big')}\n` });
		const [entry] = await index();
		expect(entry).toMatchObject({ url: server.url('/big'), status: 200, contentType: 'text/plain; charset=utf-8', changed: true, reason: 'new' });
		expect(await readFile(path.join(out.dir, entry!.file as string), 'utf8')).toBe(big);
		const again = await LevelStore.open(store.dir);
		expect((await again.getMany([server.url('/big')]))[0]).toMatchObject({ etag: '"0"', hash: entry!.hash });
		await again.close();
		expect((await cli(['sweep', '--candidates'], `${server.url('/big')}\n`)).stdout).toBe('');
	});

	it('pipes sweep --candidates into fetch on the same store: the fetch waits for the sweep to let go', async () => {
		const input = urls().join('\n');
		const candidates = (await spawnCli(['sweep', '--candidates', '--store', store.dir, '-q'], input).done).stdout;
		const piped = await spawnCli(['fetch', '--out', out.dir, '--store', store.dir, '-q'], candidates).done;
		expect(piped.status).toBe(0);
		expect((await index()).map((e) => e.url).sort()).toEqual(urls().sort());
		for (const i of [3, 7]) version.set(`/p${i}`, 1);
		const bin = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
		const shell = spawn(
			'bash',
			['-c', `set -o pipefail; ${bin} sweep --candidates --audit 0 -q --store "$STORE" | ${bin} fetch -q --store "$STORE" --out "$OUT"`],
			{
				env: { ...process.env, STORE: store.dir, OUT: out.dir },
			},
		);
		let stdout = '';
		shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		shell.stdin.end(input);
		expect(await new Promise((resolve) => shell.on('close', resolve))).toBe(0);
		expect(stdout.split('\n').filter(Boolean).sort()).toEqual([server.url('/p3'), server.url('/p7')]);
	}, 90_000);

	it('a killed fetch loses nothing: the next sweep --candidates | fetch delivers every change', async () => {
		await cli(['crawl', '--out', out.dir], urls().join('\n'));
		for (let i = 0; i < PAGES; i += 2) version.set(`/p${i}`, 1);
		const changed = urls().filter((_, i) => i % 2 === 0);
		const candidates = (await cli(['sweep', '--candidates'], urls().join('\n'))).stdout;
		expect(candidates.split('\n').filter(Boolean).sort()).toEqual([...changed].sort());

		const killed = spawnCli(['fetch', '--out', out.dir, '--store', store.dir, '-q', '--concurrency', '1'], candidates);
		await new Promise<void>((resolve) => {
			const timer = setInterval(() => {
				if (killed.stdout().split('\n').filter(Boolean).length >= 3) {
					clearInterval(timer);
					killed.child.kill('SIGKILL');
					resolve();
				}
			}, 1);
		});
		await killed.done;
		const rest = (await cli(['sweep', '--candidates'], urls().join('\n'))).stdout;
		// What the killed fetch committed (bodies written first) is not offered again.
		expect(rest.split('\n').filter(Boolean).length).toBeLessThanOrEqual(changed.length);
		await cli(['fetch', '--out', out.dir], rest);
		const delivered = (await index()).filter((e) => e.changed).map((e) => e.url);
		expect(new Set(delivered)).toEqual(new Set(changed.concat(urls())));
		expect((await cli(['sweep', '--candidates'], urls().join('\n'))).stdout).toBe('');
	});

	it('crawl (and sweep --fetch DIR) runs both phases in one process with the fetch at its own limits', async () => {
		const crawled = await cli(['crawl', '--out', out.dir, '--fetch-concurrency', '1', '--fetch-per-host', '1'], urls().join('\n'));
		expect(crawled.status).toBe(0);
		expect(crawled.stdout.split('\n').filter(Boolean)).toHaveLength(PAGES);
		version.set('/p5', 1);
		const viaSweep = await cli(['sweep', '--fetch', out.dir], urls().join('\n'));
		expect(viaSweep.stdout).toBe(`${server.url('/p5')}\n`);
		const entries = (await index()).filter((e) => e.url === server.url('/p5'));
		expect(entries.map((e) => e.reason)).toEqual(['new', 'new-body']);
	});

	it('fetch --ndjson carries each body, utf8 or base64', async () => {
		const { stdout } = await cli(['fetch', '--ndjson'], `${server.url('/p1')}\n`);
		expect(ndjson(stdout)).toEqual([expect.objectContaining({ url: server.url('/p1'), encoding: 'utf8', body: '/p1 v"0"', changed: true })]);
		expect((await cli(['fetch'], `${server.url('/p1')}\n`)).status).toBe(2);
	});
});
