import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/base/errors/index.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { runKey } from '../../src/store/model/run-key.js';
import type { RunDetail } from '../../src/store/model/types.js';
import { listen, parseListen, type Health, type Listening } from '../../src/watch/listen.js';
import { createWatchMetrics } from '../../src/watch/metrics.js';
import { describeNeeding, findProgram } from '../helpers/debian.js';
import { getWithHost as get } from '../helpers/listening.js';
import { run, T0 } from '../outputs/history/fixtures.js';

const PROMTOOL = findProgram('promtool');

const detail = (startedAt: number, url: string): RunDetail => ({
	v: 1,
	startedAt,
	changes: [{ url, reason: 'new-body', changed: true }],
	errors: [],
	errorCounts: {},
	dropped: { changes: 0, errors: 0 },
});

async function addRun(store: MemoryStore, startedAt: number, url: string): Promise<void> {
	await store.batch([
		{ type: 'putRun', key: runKey(startedAt), value: run(startedAt, { urls: 1, changed: 1 }) },
		{ type: 'putRunDetail', key: runKey(startedAt), value: detail(startedAt, url) },
	]);
}

/** `promtool check metrics` on a body: its exit status and everything it said. */
function promtool(body: string): Promise<{ status: number | null; said: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(PROMTOOL!, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
		let said = '';
		child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
		child.on('error', reject);
		child.on('close', (status) => resolve({ status, said }));
		child.stdin.end(body);
	});
}

let server: Listening | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function start(health: () => Health = () => ({ ok: true }), more: { now?: () => number; hosts?: string[] } = {}) {
	const store = new MemoryStore();
	const metrics = createWatchMetrics();
	server = await listen({ host: '127.0.0.1', port: 0 }, { metrics, health, report: { store, source: 'memory', now: more.now }, hosts: more.hosts });
	return { store, metrics, port: server.address.port, base: `http://127.0.0.1:${server.address.port}` };
}

describe('parseListen', () => {
	it('reads HOST:PORT, :PORT (every interface) and [IPv6]:PORT', () => {
		expect(parseListen('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
		expect(parseListen(':9464')).toEqual({ host: '', port: 9464 });
		expect(parseListen('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
		expect(parseListen('localhost:0')).toEqual({ host: 'localhost', port: 0 });
	});

	it('refuses anything else with a usage error naming --listen', () => {
		for (const [text, why] of [
			['9464', /a port alone needs a colon/],
			['::1:9464', /IPv6 address goes in brackets/],
			['[nope]:9464', /not an IPv6 address/],
			['127.0.0.1:65536', /above 65535/],
			['127.0.0.1', /no :PORT/],
			['127.0.0.1:http', /no :PORT/],
		] as const) {
			const error = (() => {
				try {
					parseListen(text);
				} catch (caught) {
					return caught;
				}
			})();
			expect(error, text).toBeInstanceOf(UsageError);
			expect((error as UsageError).message).toMatch(/^--listen needs HOST:PORT/);
			expect((error as UsageError).message).toMatch(why);
		}
	});
});

describe('listen', () => {
	it('serves /metrics in the text format, with the figures the watch gave', async () => {
		const { metrics, base } = await start();
		metrics.check('new-body', 512, true);
		const response = await fetch(`${base}/metrics`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
		const body = await response.text();
		expect(body).toMatch(/^revisit_checks_total\{reason="new-body"\} 1$/m);
		expect(body).toMatch(/^revisit_bytes_total 512$/m);
	});

	it('says ok on /healthz while well, and 503 with one line of reason when not', async () => {
		let health: Health = { ok: true };
		const { base } = await start(() => health);
		let response = await fetch(`${base}/healthz`);
		expect([response.status, await response.text()]).toEqual([200, 'ok\n']);
		health = { ok: false, reason: 'store: cannot write\n(disk full)' };
		response = await fetch(`${base}/healthz`);
		expect([response.status, await response.text()]).toEqual([503, 'store: cannot write (disk full)\n']);
	});

	it('says degraded, still 200, with one line naming what is behind', async () => {
		const { base } = await start(() => ({ ok: true, degraded: 'notify json://127.0.0.1:9/hook: 3 deliveries pending for 75 s\n(ECONNREFUSED)' }));
		const response = await fetch(`${base}/healthz`);
		expect([response.status, await response.text()]).toEqual([200, 'degraded: notify json://127.0.0.1:9/hook: 3 deliveries pending for 75 s (ECONNREFUSED)\n']);
	});

	it('counts a health check that throws as unwell', async () => {
		const { base } = await start(() => {
			throw new Error('scheduler stopped');
		});
		const response = await fetch(`${base}/healthz`);
		expect([response.status, await response.text()]).toEqual([503, 'scheduler stopped\n']);
	});

	it('serves the report page on /, built again once it is 5 s old', async () => {
		let now = T0;
		const { store, base } = await start(undefined, { now: () => now });
		let response = await fetch(base);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(await response.text()).toContain('no runs recorded');

		await addRun(store, T0, 'https://a.test/first');
		// Within the window the page built a moment ago is served as it is.
		now += 4999;
		expect(await (await fetch(`${base}/`)).text()).toContain('no runs recorded');
		now += 1;
		let page = await (await fetch(`${base}/`)).text();
		expect(page).toMatch(/^<!doctype html>/);
		expect(page).toContain('https://a.test/first');

		await addRun(store, T0 + 60_000, 'https://a.test/second');
		now += 5000;
		response = await fetch(`${base}/?again`);
		page = await response.text();
		expect(page).toContain('https://a.test/second');
		expect(page).not.toContain('https://a.test/first');
	});

	it('answers only a Host naming the listening address, localhost or a --listen-host name, on every path', async () => {
		const { port } = await start(undefined, { hosts: ['watch.example'] });
		for (const path of ['/', '/metrics', '/healthz', '/nope']) {
			const refused = await get(port, path, 'evil.example');
			expect(refused.status, path).toBe(421);
			expect(refused.body).toBe(
				`this server answers only requests whose Host is 127.0.0.1:${port}, localhost:${port}, watch.example; --listen-host NAME adds a name\n`,
			);
			// A rebinding page's port is the server's: the name is what tells it apart.
			expect((await get(port, path, `evil.example:${port}`)).status, path).toBe(421);
		}
		for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost.:${port}`, 'watch.example', 'WATCH.example:443']) {
			expect((await get(port, '/healthz', host)).status, host).toBe(200);
			expect((await get(port, '/metrics', host)).status, host).toBe(200);
			expect((await get(port, '/', host)).status, host).toBe(200);
		}
		// The listening address on another port is another server.
		expect((await get(port, '/healthz', `127.0.0.1:${port + 1}`)).status).toBe(421);
		expect((await get(port, '/healthz', '127.0.0.1')).status).toBe(421);
	});

	it('answers HEAD without a body, 404 elsewhere and 405 to other methods', async () => {
		const { base } = await start();
		const head = await fetch(`${base}/metrics`, { method: 'HEAD' });
		expect(head.status).toBe(200);
		expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
		expect(await head.text()).toBe('');
		expect((await fetch(`${base}/metrics/`)).status).toBe(404);
		expect((await fetch(`${base}/report.html`)).status).toBe(404);
		const post = await fetch(`${base}/metrics`, { method: 'POST', body: 'x' });
		expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
	});

	it('fails with a usage error naming --listen when the port is taken', async () => {
		const { base } = await start();
		const port = Number(new URL(base).port);
		await expect(
			listen(
				{ host: '127.0.0.1', port },
				{ metrics: createWatchMetrics(), health: () => ({ ok: true }), report: { store: new MemoryStore(), source: 'memory' } },
			),
		).rejects.toMatchObject({
			name: 'UsageError',
			code: 'USAGE',
			message: `--listen 127.0.0.1:${port}: cannot listen there (EADDRINUSE)`,
		});
	});

	it('stops listening on close', async () => {
		const { base } = await start();
		await fetch(`${base}/healthz`);
		await server!.close();
		server = undefined;
		await expect(fetch(`${base}/healthz`)).rejects.toThrow();
	});
});

describeNeeding({ name: 'prometheus', path: PROMTOOL, install: 'apt-get install -y prometheus' }, 'promtool check metrics', () => {
	it('passes /metrics with every metric set, without a lint problem', async () => {
		const { metrics, base } = await start();
		metrics.check('304', 0, false);
		metrics.check('new-body', 2048, true);
		metrics.check('error', 0, false);
		metrics.late(0.25);
		metrics.queue({ size: 3, backlog: 2, claimed: 1, hosts: 2 }, [
			{ origin: 'https://a.test', depth: 1 },
			{ origin: 'http://b.test:8080', depth: 1 },
		]);
		metrics.model({ mu: 0.1, freshness: 0.93, target: 20, rate: 19 });
		const body = await (await fetch(`${base}/metrics`)).text();
		expect(body).toContain('revisit_queue_depth{origin="http://b.test:8080"} 1');
		expect(await promtool(body)).toEqual({ status: 0, said: '' });
	});
});
