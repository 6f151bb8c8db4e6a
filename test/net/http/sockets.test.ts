import type http from 'node:http';
import got from 'got';
import { afterEach, describe, expect, it } from 'vitest';
import { createSocketPool, type SocketPool } from '../../../src/net/http/sockets.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { OptionError } from '../../../src/base/errors/index.js';

/** Polls a condition the event loop will make true: a wait, not a timed assertion. */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('createSocketPool', () => {
	let pool: SocketPool | undefined;
	const servers: TestServer[] = [];
	afterEach(async () => {
		pool?.destroy();
		await Promise.all(servers.splice(0).map((server) => server.close()));
	});

	/** A real server on 127.0.0.1 that counts the connections it was given and the ones that closed. */
	const serve = async (handler: http.RequestListener = (_req, res) => res.end('ok')) => {
		const connections = { opened: 0, closed: 0 };
		const seen = new WeakSet<object>();
		const server = await startServer((req, res) => {
			if (!seen.has(req.socket)) {
				seen.add(req.socket);
				connections.opened++;
				req.socket.once('close', () => connections.closed++);
			}
			handler(req, res);
		});
		servers.push(server);
		return { server, connections, closed: (n: number) => until(() => connections.closed >= n) };
	};
	const client = (timeoutMs = 10_000) => got.extend({ agent: { http: pool!.http, https: pool!.https }, retry: { limit: 0 }, timeout: { request: timeoutMs } });

	it('reuses an idle keep-alive socket for the same origin', async () => {
		pool = createSocketPool({ maxSockets: 4, idleMs: 60_000 });
		const site = await serve();
		await client()(site.server.url('/a'));
		await client()(site.server.url('/b'));
		expect(site.connections.opened).toBe(1);
		expect(pool.counts()).toEqual({ open: 1, idle: 1, waiting: 0 });
	});

	it('closes the least recently used idle socket, of any origin, before opening one past maxSockets', async () => {
		// Node's own maxTotalSockets would queue the third request until an idle socket closed by itself.
		pool = createSocketPool({ maxSockets: 2, idleMs: 60_000 });
		const [a, b, c] = [await serve(), await serve(), await serve()];
		await client()(a.server.url('/'));
		await client()(b.server.url('/'));
		await client()(c.server.url('/'));
		await a.closed(1);
		expect(pool.counts()).toEqual({ open: 2, idle: 2, waiting: 0 });

		// b's socket was kept (only the least recently used one went), and is reused.
		await client()(b.server.url('/again'));
		expect(b.connections).toEqual({ opened: 1, closed: 0 });
		// Now c's is the oldest idle one: a new origin takes its place.
		await client()(a.server.url('/back'));
		await c.closed(1);
		expect(b.connections.closed).toBe(0);
		expect(pool.counts().open).toBe(2);
	});

	it('lets the sockets in use go past maxSockets, with nothing idle kept beside them', async () => {
		pool = createSocketPool({ maxSockets: 1, idleMs: 60_000 });
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		const sites = [await serve((_req, res) => void released.then(() => res.end('ok'))), await serve((_req, res) => void released.then(() => res.end('ok')))];
		const requests = sites.map((site) => client()(site.server.url('/')));
		await until(() => sites.every((site) => site.connections.opened === 1));
		expect(pool.counts()).toEqual({ open: 2, idle: 0, waiting: 0 });
		release();
		await Promise.all(requests);
		// Both came free; one more is kept than maxSockets allows only until the next connection.
		await client()((await serve()).server.url('/'));
		expect(pool.counts().open).toBe(1);
	});

	it('past hardMaxSockets, with every socket in use, a request waits until one comes free, then opens its own', async () => {
		pool = createSocketPool({ maxSockets: 2, hardMaxSockets: 2, idleMs: 60_000 });
		const gates: Array<() => void> = [];
		const held = (_req: http.IncomingMessage, res: http.ServerResponse) => void gates.push(() => res.end('ok'));
		const sites = [await serve(held), await serve(held), await serve()];
		const first = client()(sites[0]!.server.url('/'));
		const second = client()(sites[1]!.server.url('/'));
		await until(() => gates.length === 2);
		const third = client()(sites[2]!.server.url('/'));
		await until(() => pool!.counts().waiting === 1);
		expect(sites[2]!.connections.opened).toBe(0);
		expect(pool.counts().open).toBe(2);

		gates[0]!();
		await third;
		// The first site's socket made the room: closed, not kept idle.
		await sites[0]!.closed(1);
		expect(sites[2]!.connections.opened).toBe(1);
		gates[1]!();
		await Promise.all([first, second]);
		expect(pool.counts()).toEqual({ open: 2, idle: 2, waiting: 0 });
	});

	it('drops a waiting request that timed out instead of sending it later', async () => {
		pool = createSocketPool({ maxSockets: 1, hardMaxSockets: 1, idleMs: 60_000 });
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		const busy = await serve((_req, res) => void released.then(() => res.end('ok')));
		const other = await serve();
		const first = client()(busy.server.url('/'));
		await until(() => busy.connections.opened === 1);
		await expect(client(200)(other.server.url('/late'))).rejects.toMatchObject({ code: 'ETIMEDOUT' });
		release();
		await first;
		await client()(other.server.url('/next'));
		expect(other.server.requests.map((request) => request.path)).toEqual(['/next']);
	});

	it('closes an idle socket after idleMs, and not one whose answer is slower than that', async () => {
		pool = createSocketPool({ maxSockets: 4, idleMs: 100 });
		const slow = await serve((_req, res) => void setTimeout(() => res.end('late'), 300));
		const response = await client()(slow.server.url('/'));
		expect(response.body).toBe('late');
		await slow.closed(1);
		expect(pool.counts()).toEqual({ open: 0, idle: 0, waiting: 0 });
	});

	it.each([0, 1.5, Number.NaN])('refuses maxSockets %s', (maxSockets) => {
		expect(() => createSocketPool({ maxSockets, idleMs: 1000 })).toThrow(OptionError);
	});
});
