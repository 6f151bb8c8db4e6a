import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerFor, type Behaviour, type Page } from '../fixtures/trust-handler.js';
import { ndjson, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { countTypes, readWarc, type ReadRecord } from '../helpers/warc.js';

const PROFILE = 'http://netpreserve.org/warc/1.1/revisit/';

interface Site {
	server: TestServer;
	pages: Page[];
	urls: string[];
}

async function site(behaviour: Behaviour, n: number): Promise<Site> {
	const pages = Array.from({ length: n }, () => ({ version: 0, deleted: false }));
	const server = await startServer(handlerFor(behaviour, pages, { requests: 0, bodies: 0, busy: 0 }));
	return { server, pages, urls: pages.map((_, i) => server.url(`/p/${i}`)) };
}

const byType = (records: ReadRecord[], type: string) => records.filter((record) => record.type === type);
const target = (record: ReadRecord) => record.headers['WARC-Target-URI']!;

describe('--warc', () => {
	let etags: Site;
	let plain: Site;
	let gzip: Site;
	let dir: { dir: string; cleanup(): Promise<void> };
	const all = () => [...etags.urls, ...plain.urls, ...gzip.urls];
	beforeAll(async () => {
		[etags, plain, gzip] = await Promise.all([site('strong-etag', 6), site('no-validators', 4), site('gzip-etag', 3)]);
		dir = await tempDir('revisit-warc-');
	});
	afterAll(async () => {
		await Promise.all([etags, plain, gzip].map((s) => s.server.close()));
		await dir.cleanup();
	});

	it('archives a first crawl, then revisits, then exactly the edits, and the store knows each capture', async () => {
		const store = path.join(dir.dir, 'store');
		const file = (name: string) => path.join(dir.dir, name);
		const sweep = (name: string) => runCli(['sweep', '--store', store, '--audit', '0', '-q', '--warc', file(name)], all().join('\n'));

		expect((await sweep('first.warc.gz')).status).toBe(0);
		const first = await readWarc(file('first.warc.gz'));
		expect(countTypes(first)).toEqual({ warcinfo: 1, request: 13, response: 13 });
		expect(first[0]!.type).toBe('warcinfo');
		expect(first[0]!.block.toString()).toContain('software: revisit/');
		const responses = byType(first, 'response');
		expect(responses.map(target).sort()).toEqual(all().sort());
		for (const response of responses) {
			expect(response.http?.status).toBe(200);
			expect(response.headers['WARC-IP-Address']).toBe('127.0.0.1');
			expect(Number(response.headers['Content-Length'])).toBe(response.block.length);
		}
		// As received on the wire: the gzip site's payload is still gzip.
		const zipped = responses.find((record) => target(record) === gzip.urls[0])!;
		expect(zipped.http?.headers['content-encoding']).toBe('gzip');
		expect([...zipped.payload!.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
		// Each request sits beside its response.
		const requests = byType(first, 'request');
		expect(requests.map((record) => record.headers['WARC-Concurrent-To']).sort()).toEqual(responses.map((record) => record.headers['WARC-Record-ID']).sort());
		expect(requests[0]!.block.toString()).toMatch(/^GET \/p\/\d+ HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
		const capture = new Map(responses.map((record) => [target(record), record.headers]));

		expect((await sweep('second.warc.gz')).status).toBe(0);
		const second = await readWarc(file('second.warc.gz'));
		expect(countTypes(second)).toEqual({ warcinfo: 1, revisit: 13 });
		for (const record of byType(second, 'revisit')) {
			const earlier = capture.get(target(record))!;
			expect(record.headers['WARC-Payload-Digest']).toBe(earlier['WARC-Payload-Digest']);
			expect(record.headers['WARC-Refers-To-Target-URI']).toBe(target(record));
			expect(record.headers['WARC-Refers-To-Date']).toBe(earlier['WARC-Date']);
			if (plain.urls.includes(target(record))) {
				expect(record.headers['WARC-Profile']).toBe(`${PROFILE}identical-payload-digest`);
				expect(record.http?.status).toBe(200);
			} else {
				expect(record.headers['WARC-Profile']).toBe(`${PROFILE}server-not-modified`);
				expect(record.http?.status).toBe(304);
				expect(record.headers['WARC-Etag']).toMatch(/^"/);
			}
		}

		const edited = [etags.urls[1]!, etags.urls[4]!, plain.urls[2]!].sort();
		etags.pages[1]!.version++;
		etags.pages[4]!.version++;
		plain.pages[2]!.version++;
		const third = await sweep('third.warc.gz');
		expect(third.stdout.trim().split('\n').sort()).toEqual(edited);
		const records = await readWarc(file('third.warc.gz'));
		expect(byType(records, 'response').map(target).sort()).toEqual(edited);
		expect(byType(records, 'revisit')).toHaveLength(10);
		const exported = ndjson((await runCli(['export', '--store', store])).stdout).filter((row) => row.kind === 'url');
		const newest = new Map([...responses, ...byType(records, 'response')].map((record) => [target(record), record.headers['WARC-Payload-Digest']]));
		for (const row of exported) expect((row.value as { warc: { digest: string } }).warc.digest).toBe(newest.get(row.key as string));
	});

	it('rotates files past --warc-max-size, each starting with warcinfo, and never appends to an old one', async () => {
		const store = path.join(dir.dir, 'store-rotating');
		const file = path.join(dir.dir, 'rot.warc.gz');
		expect((await runCli(['sweep', '--store', store, '-q', '--warc', file, '--warc-max-size', '2KiB'], all().join('\n'))).status).toBe(0);
		expect((await runCli(['sweep', '--store', store, '-q', '--warc', file], all().join('\n'))).status).toBe(0);
		const files = (await readdir(dir.dir))
			.filter((name) => name.startsWith('rot') && name.endsWith('.warc.gz'))
			// rot.warc.gz first, then rot-00001.warc.gz, rot-00002.warc.gz, …
			.sort((a, b) => Number(/-(\d+)\./.exec(a)?.[1] ?? 0) - Number(/-(\d+)\./.exec(b)?.[1] ?? 0));
		expect(files.length).toBeGreaterThan(3);
		const read = await Promise.all(files.map((name) => readWarc(path.join(dir.dir, name))));
		for (const records of read) expect(records[0]!.type).toBe('warcinfo');
		const counts = countTypes(read.flat());
		expect(counts).toEqual({ warcinfo: files.length, request: 13, response: 13, revisit: 13 });
		// The second run's records are in a file of their own.
		expect(countTypes(read.at(-1)!)).toEqual({ warcinfo: 1, revisit: 13 });
	});
});

describe('a warc sink in a pipeline file', () => {
	it('archives like --warc, and refuses a bad maxSize at its pointer', async () => {
		const etags = await site('strong-etag', 3);
		const dir = await tempDir('revisit-warc-run-');
		try {
			const file = path.join(dir.dir, 'run.warc.gz');
			const config = (maxSize: unknown) =>
				JSON.stringify({
					store: path.join(dir.dir, 'store'),
					source: { type: 'urls', urls: etags.urls },
					sinks: [{ type: 'stdout' }, { type: 'warc', path: file, maxSize }],
				});
			await writeFile(path.join(dir.dir, 'bad.json'), config('lots'));
			const bad = await runCli(['run', path.join(dir.dir, 'bad.json')]);
			expect(bad.status).toBe(2);
			expect(bad.stderr).toContain('/sinks/1/maxSize');
			await writeFile(path.join(dir.dir, 'good.json'), config('1GB'));
			const good = await runCli(['run', path.join(dir.dir, 'good.json'), '-q']);
			expect(good.status).toBe(0);
			expect(good.stdout.trim().split('\n').sort()).toEqual([...etags.urls].sort());
			expect(countTypes(await readWarc(file))).toEqual({ warcinfo: 1, request: 3, response: 3 });
			const index = await runCli(['warc-index', file]);
			expect(index.status).toBe(0);
			const lines = index.stdout.trim().split('\n');
			expect(lines).toHaveLength(3);
			expect(lines[0]).toMatch(
				/^1,0,0,127:\d+\)\/p\/\d \d{14} \{"url":"http:\/\/127\.0\.0\.1:\d+\/p\/\d","mime":"text\/html","status":"200","digest":"[A-Z2-7]{32}",/,
			);
		} finally {
			await etags.server.close();
			await dir.cleanup();
		}
	});
});

describe('--warc and a killed run', () => {
	it('leaves at most a truncated tail; every URL the store says archived is in the WARC; the next file reads clean', async () => {
		const pages = Array.from({ length: 200 }, () => ({ version: 0, deleted: false }));
		const handler = handlerFor('strong-etag', pages, { requests: 0, bodies: 0, busy: 0 });
		const server = await startServer((req, res) => setTimeout(() => handler(req, res), 20));
		const dir = await tempDir('revisit-warc-kill-');
		try {
			const store = path.join(dir.dir, 'store');
			const file = path.join(dir.dir, 'crawl.warc.gz');
			const urls = pages.map((_, i) => server.url(`/p/${i}`)).join('\n');
			const run = spawnCli(['sweep', '--store', store, '-q', '--warc', file, '--per-host', '2'], urls);
			await new Promise<void>((resolve) => {
				const check = setInterval(() => {
					if (run.stdout().split('\n').length > 60) {
						clearInterval(check);
						resolve();
					}
				}, 5);
			});
			run.child.kill('SIGKILL');
			await run.done;
			const archived = new Set(byType(await readWarc(file, { truncatedTail: true }), 'response').map((record) => record.headers['WARC-Payload-Digest']));
			const committed = ndjson((await runCli(['export', '--store', store])).stdout).filter((row) => row.kind === 'url');
			expect(committed.length).toBeGreaterThan(0);
			for (const row of committed) expect(archived.has((row.value as { warc: { digest: string } }).warc.digest)).toBe(true);
			expect((await runCli(['sweep', '--store', store, '-q', '--warc', file], urls)).status).toBe(0);
			const next = await readWarc(path.join(dir.dir, 'crawl-00001.warc.gz'));
			expect(countTypes(next)).toEqual({ warcinfo: 1, request: 200 - committed.length, response: 200 - committed.length, revisit: committed.length });
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});
});
