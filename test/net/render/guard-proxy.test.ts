import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuardProxy, type GuardProxy } from '../../../src/net/render/guard-proxy.js';
import { AS_ROOT, ASK_PROXY, asNobody, NOBODY } from '../../helpers/other-user.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait-for.js';

/** The header revisit's browser sends once the proxy asked for its credential. */
function authorization(proxy: GuardProxy, password = proxy.credential.password): string {
	return `Basic ${Buffer.from(`${proxy.credential.username}:${password}`).toString('base64')}`;
}

/** One request sent through the proxy in absolute form, as a browser sends it (with the proxy's credential, unless `headers` say otherwise). */
function viaProxy(proxy: GuardProxy, url: string, headers: Record<string, string> = {}): Promise<{ status: number; refused: boolean; body: string }> {
	const at = new URL(proxy.server);
	return new Promise((resolve, reject) => {
		// An empty header is one not sent.
		const sent = Object.fromEntries(
			Object.entries({ host: new URL(url).host, 'proxy-authorization': authorization(proxy), ...headers }).filter(([, value]) => value !== ''),
		);
		const request = http.request({ host: at.hostname, port: at.port, path: url, headers: sent }, (response) => {
			let body = '';
			response.on('data', (chunk: Buffer) => (body += chunk));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, refused: response.headers['x-revisit-refused'] === '1', body }));
		});
		request.on('error', reject);
		request.end();
	});
}

/** The proxy's answer to `CONNECT authority`: its status line. */
function connect(proxy: GuardProxy, authority: string, credential: string | null = authorization(proxy)): Promise<string> {
	const at = new URL(proxy.server);
	const asked = credential === null ? '' : `proxy-authorization: ${credential}\r\n`;
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(at.port), at.hostname, () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${asked}\r\n`));
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
			expect(proxy.refused).toEqual([
				`http://localhost:${port()}/by-name`,
				`http://127.0.0.1:${port()}/literal`,
				`https://localhost:${port()}`,
				`https://127.0.0.1:${port()}`,
			]);
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

	it('answers 407 to a request or a tunnel without its credential, or with a wrong one, and sends nothing on; a wrong one is said', async () => {
		const lines: string[] = [];
		const proxy = await startGuardProxy({ denyPrivate: false }, { onStranger: (line) => lines.push(line) });
		try {
			const before = origin.requests.length;
			expect(await viaProxy(proxy, `http://127.0.0.1:${port()}/none`, { 'proxy-authorization': '' })).toMatchObject({ status: 407 });
			expect(await viaProxy(proxy, `http://127.0.0.1:${port()}/wrong`, { 'proxy-authorization': authorization(proxy, 'guess') })).toMatchObject({
				status: 407,
			});
			expect(await connect(proxy, `127.0.0.1:${port()}`, null)).toMatch(/^HTTP\/1\.1 407/);
			expect(await connect(proxy, `127.0.0.1:${port()}`, authorization(proxy, 'guess'))).toMatch(/^HTTP\/1\.1 407/);
			expect(origin.requests.length).toBe(before);
			expect(proxy.unauthenticated.count).toBe(4);
			// This uid with no credential is how Chromium first asks: only the wrong credentials are said.
			await waitFor(() => lines.length === 2, 'two lines');
			expect(lines).toEqual([
				expect.stringMatching(/refused a client of uid \d+ \(GET, a wrong credential\)/),
				expect.stringMatching(/refused a client of uid \d+ \(CONNECT, a wrong credential\)/),
			]);
			expect(await viaProxy(proxy, `http://127.0.0.1:${port()}/right`)).toMatchObject({ status: 200, body: 'inside' });
		} finally {
			await proxy.close();
		}
	});

	it.runIf(AS_ROOT)('another local user (nobody) gets 407 for a GET and a CONNECT to a loopback service, and is said by uid', async () => {
		const lines: string[] = [];
		const proxy = await startGuardProxy({ denyPrivate: false }, { onStranger: (line) => lines.push(line) });
		try {
			const before = origin.requests.length;
			const answers = JSON.parse(await asNobody(ASK_PROXY, [proxy.server, `http://127.0.0.1:${port()}/internal`, `127.0.0.1:${port()}`])) as {
				get: string;
				connect: string;
			};
			expect(answers).toEqual({ get: expect.stringMatching(/^HTTP\/1\.1 407/), connect: expect.stringMatching(/^HTTP\/1\.1 407/) });
			expect(origin.requests.length).toBe(before);
			await waitFor(() => lines.length === 2, 'two lines');
			expect(lines).toEqual([
				expect.stringContaining(`refused a client of uid ${NOBODY} (GET, no credential)`),
				expect.stringContaining(`refused a client of uid ${NOBODY} (CONNECT, no credential)`),
			]);
		} finally {
			await proxy.close();
		}
	});
});
