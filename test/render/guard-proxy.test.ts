import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuardProxy, type GuardProxy } from '../../src/render/guard-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** One request sent through the proxy in absolute form, as a browser sends it. */
function viaProxy(proxy: GuardProxy, url: string, headers: Record<string, string> = {}): Promise<{ status: number; refused: boolean; body: string }> {
	const at = new URL(proxy.server);
	return new Promise((resolve, reject) => {
		const request = http.request({ host: at.hostname, port: at.port, path: url, headers: { host: new URL(url).host, ...headers } }, (response) => {
			let body = '';
			response.on('data', (chunk: Buffer) => (body += chunk));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, refused: response.headers['x-revisit-refused'] === '1', body }));
		});
		request.on('error', reject);
		request.end();
	});
}

/** The proxy's answer to `CONNECT authority`: its status line. */
function connect(proxy: GuardProxy, authority: string): Promise<string> {
	const at = new URL(proxy.server);
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(at.port), at.hostname, () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`));
		socket.once('data', (chunk) => {
			resolve(chunk.toString('latin1').split('\r\n')[0]!);
			socket.destroy();
		});
		socket.once('error', reject);
	});
}

describe('startGuardProxy', () => {
	let origin: TestServer;
	beforeAll(async () => {
		origin = await startServer((_, response) => response.end('inside'));
	});
	afterAll(async () => {
		await origin?.close();
	});
	const port = () => new URL(origin.origin).port;

	it('sends a request on, its answer back, when nothing forbids it', async () => {
		const proxy = await startGuardProxy({ denyPrivate: false });
		try {
			expect(await viaProxy(proxy, `http://localhost:${port()}/open`, { 'x-page': '1' })).toEqual({ status: 200, refused: false, body: 'inside' });
			expect(origin.seen('/open')[0]!.headers['x-page']).toBe('1');
		} finally {
			await proxy.close();
		}
	});

	it('under --deny-private refuses a name that resolves to loopback, and a literal, before connecting; and a CONNECT tunnel to either', async () => {
		const proxy = await startGuardProxy({ denyPrivate: true });
		try {
			const before = origin.requests.length;
			expect(await viaProxy(proxy, `http://localhost:${port()}/by-name`)).toMatchObject({ refused: true });
			expect(await viaProxy(proxy, `http://127.0.0.1:${port()}/literal`)).toMatchObject({ status: 403, refused: true });
			expect(await connect(proxy, `localhost:${port()}`)).toMatch(/^HTTP\/1\.1 403/);
			expect(await connect(proxy, `127.0.0.1:${port()}`)).toMatch(/^HTTP\/1\.1 403/);
			expect(origin.requests.length).toBe(before);
			expect(proxy.refused).toEqual([`http://localhost:${port()}/by-name`, `http://127.0.0.1:${port()}/literal`, `https://localhost:${port()}`, `https://127.0.0.1:${port()}`]);
		} finally {
			await proxy.close();
		}
	});

	it('asks the policy of the moment about each URL (a run sets robots.txt there), and refuses the browser updater outright', async () => {
		const asked: string[] = [];
		const proxy = await startGuardProxy({ denyPrivate: false });
		try {
			proxy.policy = { denyPrivate: false, allow: (url) => (asked.push(url), !url.endsWith('/private')) };
			expect(await viaProxy(proxy, `http://localhost:${port()}/private`)).toMatchObject({ status: 403, refused: true });
			expect(await viaProxy(proxy, `http://localhost:${port()}/public`)).toMatchObject({ status: 200 });
			expect(await viaProxy(proxy, `http://localhost:${port()}/update`, { 'x-goog-update-appid': 'x' })).toMatchObject({ status: 403 });
			expect(asked).toEqual([`http://localhost:${port()}/private`, `http://localhost:${port()}/public`]);
			expect(origin.seen('/private')).toEqual([]);
			expect(origin.seen('/update')).toEqual([]);
		} finally {
			await proxy.close();
		}
	});
});
