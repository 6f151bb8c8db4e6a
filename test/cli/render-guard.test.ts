import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { CHROMIUM } from '../helpers/browser.js';
import { describeNeeding } from '../helpers/debian.js';
import { IPROUTE2, startPublicHost, type PublicHost } from '../helpers/public-host.js';
import { hostilePages } from '../helpers/hostile-pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Row = { url: string; reason: string; rendered?: boolean; error?: { code: string } };

/** A service on loopback no page may reach (a watch's report and /metrics, say): every connection counted, whatever it carries. */
async function internalService(): Promise<{ port: number; seen: string[]; close(): Promise<void> }> {
	const seen: string[] = [];
	const server = http.createServer((request, response) => response.end('internal: secret\n'));
	server.on('connection', () => seen.push('connection'));
	server.on('request', (request: http.IncomingMessage) => seen.push(request.url ?? ''));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		seen,
		close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
	};
}

describeNeeding(CHROMIUM, 'sweep --render: what a hostile page on a public host can reach', () => {
	describeNeeding(IPROUTE2, 'with the page on a test host in a network namespace', () => {
		let site: PublicHost;
		let internal: Awaited<ReturnType<typeof internalService>>;
		let udp: dgram.Socket;
		let packets = 0;
		let dir: Awaited<ReturnType<typeof tempDir>>;
		beforeAll(async () => {
			internal = await internalService();
			udp = dgram.createSocket('udp4');
			udp.on('message', () => packets++);
			await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
			site = await startPublicHost(hostilePages({ internalPort: internal.port, udpPort: udp.address().port }));
			dir = await tempDir('revisit-render-guard-');
		});
		afterAll(async () => {
			await site?.close();
			await internal?.close();
			udp?.close();
			await dir?.cleanup();
		});

		const sweep = async (store: string, ...args: string[]) => {
			const run = await runCli(['sweep', '--store', path.join(dir.dir, store), '--render', 'always', '--render-timeout', '8', '--ndjson', '--all', ...args]);
			if (run.stdout === '') console.log(run.stderr);
			return { ...run, rows: ndjson(run.stdout) as unknown as Row[] };
		};

		it('--deny-private holds in the browser: fetches, a redirect, frames, beacons, ' +
			'forms, CSS, scripts and workers reach nothing on loopback by name', async () => {
			const run = await sweep('deny', '--deny-private', site.url('/hostile'));
			expect(run.rows).toEqual([expect.objectContaining({ url: site.url('/hostile'), reason: 'new', rendered: true })]);
			// The page ran: it asked its own host for the redirect and the workers' scripts.
			const asked = site.requests.map((request) => request.path);
			expect(asked).toEqual(expect.arrayContaining(['/redirect', '/worker.js', '/done']));
			expect(internal.seen).toEqual([]);
		}, 60_000);

		it('no popup, WebRTC or WebSocket gets past the guard: nothing reaches loopback over TCP or UDP', async () => {
			const run = await sweep('popups', site.url('/escape'), '--deny-private', '--select', '.late');
			expect(run.rows).toEqual([expect.objectContaining({ url: site.url('/escape'), reason: 'new', rendered: true })]);
			expect(site.requests.map((request) => request.path)).toContain('/escape-done');
			expect(internal.seen).toEqual([]);
			expect(packets).toBe(0);
		}, 60_000);
	});

	describe('with -H secret headers', () => {
		let page: TestServer;
		let api: TestServer;
		let dir: Awaited<ReturnType<typeof tempDir>>;
		beforeAll(async () => {
			// The API is another origin: it lets the page read its answer (CORS), with an ETag to revalidate.
			api = await startServer((request, response) => {
				const headers = { 'access-control-allow-origin': '*', etag: '"p1"', 'content-type': 'application/json', 'cache-control': 'no-cache' };
				if (request.headers['if-none-match'] === '"p1"') return void response.writeHead(304, headers).end();
				response.writeHead(200, headers).end('{"price":"21 EUR"}');
			});
			page = await startServer((request, response) => {
				if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304, { etag: '"v1"' }).end();
				response
					.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' })
					.end(
						`<!doctype html><p class="price"></p><script>fetch('${api.url('/api/price')}').then((r) => r.json()).then((d) => { ` +
							`document.querySelector('.price').textContent = d.price; });</script>`,
					);
			});
			dir = await tempDir('revisit-render-secrets-');
		});
		afterAll(async () => {
			await page?.close();
			await api?.close();
			await dir?.cleanup();
		});

		it("sends them to the page's origin only: not to another origin's data request, rendered or revalidated without a browser", async () => {
			const args = [
				'sweep',
				'--store',
				path.join(dir.dir, 'store'),
				page.url('/product'),
				'--render',
				'always',
				'-H',
				'Authorization: Bearer s3cret',
				'-H',
				'X-Api-Key: k3y',
				'--ndjson',
				'--all',
				'--select',
				'.price',
				'--audit',
				'0',
			];
			const first = await runCli(args);
			expect(ndjson(first.stdout)).toEqual([expect.objectContaining({ reason: 'new', rendered: true })]);
			const second = await runCli(args);
			// The document answered 304, and so did its data request, asked again without a browser. (No audit:
			// the default audits 2% of 304s with a full GET, which would be a third request to the page.)
			expect(ndjson(second.stdout)).toEqual([expect.objectContaining({ reason: '304' })]);
			expect(api.seen('/api/price').map((request) => request.headers['if-none-match'] ?? 'unconditional')).toEqual(['unconditional', '"p1"']);
			for (const request of api.requests) expect([request.headers['authorization'], request.headers['x-api-key']]).toEqual([undefined, undefined]);
			expect(page.seen('/product').map((request) => request.headers['authorization'])).toEqual(['Bearer s3cret', 'Bearer s3cret']);
		}, 60_000);
	});
});
