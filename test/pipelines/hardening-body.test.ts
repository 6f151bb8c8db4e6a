import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ndjson, spawnCli } from '../helpers/cli.js';
import { readRecord, readStore, sweepRun, useFixtures, verdictFor } from './fixtures.js';

const MiB = 1024 ** 2;

/** `mib` MiB of zeros, gzipped as it streams (never held whole): about 1 KB per MiB. */
async function gzipOfZeros(mib: number): Promise<Buffer> {
	const gzip = createGzip({ level: 9 });
	const out: Buffer[] = [];
	gzip.on('data', (chunk: Buffer) => out.push(chunk));
	const ended = new Promise((resolve) => gzip.on('end', resolve));
	const zeros = Buffer.alloc(MiB);
	for (let i = 0; i < mib; i++) if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
	gzip.end();
	await ended;
	return Buffer.concat(out);
}

/** The peak RSS (VmHWM, bytes) of a running process, polled from /proc until it exits. */
async function pollPeakRss(pid: number, exited: Promise<unknown>): Promise<{ peak: number; samples: number }> {
	let done = false;
	void exited.then(() => (done = true));
	let peak = 0;
	let samples = 0;
	while (!done) {
		try {
			const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]);
			if (kb > 0) {
				peak = Math.max(peak, kb * 1024);
				samples++;
			}
		} catch {
			// Exited between the check and the read.
		}
		await sleep(10);
	}
	return { peak, samples };
}

describe('sweep against bodies too large to hold', () => {
	const fx = useFixtures();

	it.each([
		['with a content-length', (res: ServerResponse) => res.writeHead(200, { 'content-length': String(MiB) }).end(Buffer.alloc(MiB, 'a'))],
		[
			'chunked, with no length',
			(res: ServerResponse) => {
				res.writeHead(200);
				for (let i = 0; i < 16; i++) res.write(Buffer.alloc(MiB / 16, 'b'));
				res.end();
			},
		],
		[
			'small on the wire, 1 MiB gzip-decoded',
			(res: ServerResponse) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(MiB, 'c'))),
		],
	])('stops a 1 MB body %s at --max-body 64KiB: BODY_TOO_LARGE, record kept', async (_how, serveLarge) => {
		let large = false;
		const server = await fx.serve((req, res) => {
			if (req.url === '/fine') return void res.end('a small page');
			if (large) return void serveLarge(res);
			res.writeHead(200, { etag: '"small"' }).end('a small page, for now');
		});
		const [url, fine] = [server.url('/page'), server.url('/fine')];
		expect((await sweepRun(fx.dir, [url, fine], ['--max-body', '64KiB'])).status).toBe(0);
		const before = await readRecord(fx.dir, url);

		large = true;
		const run = await sweepRun(fx.dir, [url, fine], ['--max-body', '64KiB', '--retries', '2']);
		expect(run.status).toBe(1);
		expect(verdictFor(run, url)).toMatchObject({
			changed: false,
			reason: 'error',
			error: { code: 'BODY_TOO_LARGE', message: 'body is larger than 65536 bytes (--max-body)' },
		});
		expect(verdictFor(run, fine)).toMatchObject({ changed: false, reason: 'same-hash' });
		expect(run.stderr).toContain(`${url}: BODY_TOO_LARGE`);
		// Not retried: the same body would be just as large.
		expect(server.seen('/page')).toHaveLength(2);
		expect(await readRecord(fx.dir, url)).toEqual(before);
	});

	describe('a gzip bomb', () => {
		let bomb: Buffer;
		let doubleBomb: Buffer;
		beforeAll(async () => {
			bomb = await gzipOfZeros(256);
			doubleBomb = gzipSync(bomb, { level: 9 });
		});

		it('stops at the default --max-body (10 MiB decoded), in a process whose peak RSS stays under 200 MB', async () => {
			// About 250 KB that inflate to 256 MiB; and the same gzipped again: under 1 KB on the wire.
			expect(bomb.length).toBeLessThan(400_000);
			expect(doubleBomb.length).toBeLessThan(4096);
			let armed = false;
			const server = await fx.serve((req, res) => {
				if (req.url === '/slow') return void setTimeout(() => res.end('slow, and still judged'), 1500);
				if (!armed) return void res.writeHead(200, { etag: `"${req.url}"`, 'content-encoding': 'gzip' }).end(gzipSync('a small page'));
				if (req.url === '/bomb') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
				res.writeHead(200, { 'content-encoding': 'gzip, gzip' }).end(doubleBomb);
			});
			const [single, double, slow] = [server.url('/bomb'), server.url('/double'), server.url('/slow')];
			expect((await sweepRun(fx.dir, [single, double, slow])).status).toBe(0);
			const before = await readStore(fx.dir, [single, double]);

			armed = true;
			// The built CLI in its own process, so its memory is its own: the slow page keeps it alive past the bombs.
			const { child, done } = spawnCli(
				['sweep', '--store', fx.dir, '--ndjson', '--all', '-q', '--audit', '0', '--retries', '1'],
				`${single}\n${double}\n${slow}\n`,
			);
			const [{ peak, samples }, result] = await Promise.all([pollPeakRss(child.pid!, done), done]);
			expect(result.status).toBe(1);
			expect(result.stderr).not.toMatch(/\n\s+at /);
			const verdicts = ndjson(result.stdout);
			for (const url of [single, double]) {
				expect(verdicts.find((verdict) => verdict.url === url)).toMatchObject({ changed: false, reason: 'error', error: { code: 'BODY_TOO_LARGE' } });
			}
			expect(verdicts.find((verdict) => verdict.url === slow)).toMatchObject({ changed: false, reason: 'same-hash' });
			expect(server.seen('/bomb')).toHaveLength(2);
			expect(samples).toBeGreaterThan(10);
			expect(peak).toBeGreaterThan(10 * MiB);
			expect(peak).toBeLessThan(200 * 1e6);
			expect(await readStore(fx.dir, [single, double])).toEqual(before);
		}, 60_000);
	});
});
