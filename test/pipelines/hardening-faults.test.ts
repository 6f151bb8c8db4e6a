import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { RECORD_VERSION, type UrlRecord } from '../../src/store/model/types.js';
import { readRecord, sweepRun, useFixtures, verdictFor, type SweepRun } from './fixtures.js';
import { page, respond, useRawServers, type Behaviour, type RawServer } from './hardening-servers.js';

/**
 * Faults on the wire. Each case: a good run stores the page, then the server misbehaves;
 * the page must get an `error` verdict with a stable code, keep its stored record, and
 * not stop the run (a second page on the same server is judged), and the exit status is 1.
 */
describe('sweep against servers that fail mid-request', () => {
	const fx = useFixtures();
	const raw = useRawServers();

	/** A good run of `/page` and `/fine`, then `/page` switched to `fault` and swept again with `extra`. */
	async function afterFault(server: RawServer, fault: Behaviour, extra: string[]): Promise<{ run: SweepRun; url: string; fine: string; before: UrlRecord }> {
		const [url, fine] = [server.url('/page'), server.url('/fine')];
		server.on('/page', page('the page', '"v1"'));
		server.on('/fine', page('a page that always works', '"f1"'));
		const first = await sweepRun(fx.dir, [url, fine]);
		expect(first.status).toBe(0);
		const before = (await readRecord(fx.dir, url))!;
		expect(before).toMatchObject({ status: 200, etag: '"v1"' });

		server.on('/page', fault);
		const run = await sweepRun(fx.dir, [url, fine], extra);
		return { run, url, fine, before };
	}

	async function expectErrorVerdict(result: { run: SweepRun; url: string; fine: string; before: UrlRecord }, code: string): Promise<void> {
		const { run, url, fine, before } = result;
		expect(run.status).toBe(1);
		expect(verdictFor(run, url)).toMatchObject({ changed: false, reason: 'error', error: { code } });
		expect(verdictFor(run, fine)).toMatchObject({ changed: false, reason: 'same-hash', status: 200 });
		expect(run.stderr).toContain(`${url}: ${code}: `);
		expect(await readRecord(fx.dir, url)).toEqual(before);
	}

	it('reports a connection reset in the middle of the headers as ECONNRESET, after its retries', async () => {
		const server = await raw.start();
		const result = await afterFault(
			server,
			(socket) => {
				socket.write('HTTP/1.1 200 OK\r\netag: "v2"\r\ncontent-le');
				setTimeout(() => socket.resetAndDestroy(), 20);
			},
			['--retries', '1'],
		);
		await expectErrorVerdict(result, 'ECONNRESET');
		expect(result.run.verdicts.find((verdict) => verdict.url === result.url)).not.toHaveProperty('status');
		expect(server.seen('/page')).toHaveLength(3); // the good run, then two attempts
	});

	it('reports a connection reset in the middle of the body as ECONNRESET, after its retries', async () => {
		const server = await raw.start();
		const result = await afterFault(
			server,
			(socket) => {
				socket.write(`HTTP/1.1 200 OK\r\netag: "v2"\r\ncontent-length: 100000\r\n\r\n${'x'.repeat(5000)}`);
				setTimeout(() => socket.resetAndDestroy(), 20);
			},
			['--retries', '1'],
		);
		await expectErrorVerdict(result, 'ECONNRESET');
		expect(server.seen('/page')).toHaveLength(3);
	});

	it('caps the total time of a body that trickles one byte a second with --timeout (ETIMEDOUT)', async () => {
		const server = await raw.start();
		const trickled: number[] = [];
		const trickle = (socket: net.Socket): void => {
			socket.write('HTTP/1.1 200 OK\r\netag: "v2"\r\ncontent-length: 60\r\n\r\n');
			const timer = setInterval(() => {
				trickled.push(Date.now());
				socket.write('x');
			}, 1000);
			socket.on('close', () => clearInterval(timer));
		};
		const started = Date.now();
		const result = await afterFault(server, trickle, ['--timeout', '3.5', '--retries', '0']);
		await expectErrorVerdict(result, 'ETIMEDOUT');
		// Bytes kept coming (never idle for the whole timeout), yet the attempt was cut off: a cap on total time.
		expect(trickled.length).toBeGreaterThanOrEqual(2);
		expect(trickled.length).toBeLessThan(60);
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(server.seen('/page')).toHaveLength(2);
	});

	it.each([
		['502 Bad Gateway', 'HTTP_502', 502],
		['504 Gateway Timeout', 'HTTP_504', 504],
	])('reports a %s that outlasts the retries as %s', async (status, code, number) => {
		const server = await raw.start();
		const result = await afterFault(server, (socket) => respond(socket, status, [], 'upstream trouble'), ['--retries', '1']);
		await expectErrorVerdict(result, code);
		expect(verdictFor(result.run, result.url)).toMatchObject({ status: number });
		expect(server.seen('/page')).toHaveLength(3);
	});

	it('does not resolve a name under .invalid: ENOTFOUND (or EAI_AGAIN), stored record untouched', async () => {
		const server = await raw.start();
		server.on('/fine', page('a page that always works'));
		const url = 'http://revisit-hardening.invalid/page';
		const fine = server.url('/fine');
		// No run can ever have fetched it, so the "earlier good run" is written directly.
		const stored: UrlRecord = { v: RECORD_VERSION, status: 200, etag: '"kept"', hash: '0'.repeat(32), lastChecked: 1_700_000_000_000 };
		const store = await LevelStore.open(fx.dir);
		await store.batch([{ type: 'put', key: url, value: stored }]);
		await store.close();

		const run = await sweepRun(fx.dir, [url, fine], ['--retries', '0']);
		expect(run.status).toBe(1);
		const verdict = verdictFor(run, url);
		expect(verdict).toMatchObject({ changed: false, reason: 'error' });
		expect(['ENOTFOUND', 'EAI_AGAIN']).toContain((verdict.error as { code: string }).code);
		expect(verdictFor(run, fine)).toMatchObject({ changed: true, reason: 'new', status: 200 });
		expect(await readRecord(fx.dir, url)).toEqual(stored);
	});
});
