import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait-for.js';

/** An origin that counts the TCP connections made to it; every page answers after 20 ms, with an ETag. */
async function countingOrigin(): Promise<{ url(path: string): string; connections: number; requests: number; close(): Promise<void> }> {
	const seen = { connections: 0, requests: 0 };
	const server = http.createServer((req, res) => {
		seen.requests++;
		setTimeout(() => {
			if (req.headers['if-none-match'] === '"v0"') return void res.writeHead(304, { etag: '"v0"' }).end();
			res.writeHead(200, { etag: '"v0"', 'content-type': 'text/plain' }).end(`${req.url}`);
		}, 20);
	});
	server.on('connection', () => seen.connections++);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: (path) => `http://127.0.0.1:${port}${path}`,
		get connections() {
			return seen.connections;
		},
		get requests() {
			return seen.requests;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
	for (const close of closing.splice(0)) await close();
});

/**
 * Starts `count` counting origins and watches their 40 pages each, interleaved (each
 * origin's pages come in turn, as a watch over many sites claims them; each checked once:
 * the next check is an hour on), until every page was checked, then stops the watch with
 * SIGTERM: waiting on the requests, not on a wall-clock --until that a loaded machine may
 * reach first. Returns the origins, each having seen its 40 requests.
 */
async function watchOrigins(count: number, flags: string[]): Promise<Array<Awaited<ReturnType<typeof countingOrigin>>>> {
	const origins = await Promise.all(Array.from({ length: count }, () => countingOrigin()));
	const store = await tempDir();
	closing.push(...origins.map((origin) => origin.close), store.cleanup);
	const urls = Array.from({ length: 40 }, (_, i) => origins.map((origin) => origin.url(`/p${i}`))).flat();
	const watch = spawnCli(['watch', '--store', store.dir, '-q', '--robots', 'ignore', '--audit', '0', '--rate', '1000/s', ...flags], urls.join('\n'));
	try {
		await waitFor(() => origins.every((origin) => origin.requests === 40), 'every page checked');
	} finally {
		watch.child.kill('SIGTERM');
	}
	const run = await watch.done;
	expect(run.status, run.stderr).toBe(0);
	for (const origin of origins) expect(origin.requests).toBe(40);
	return origins;
}

it('revisit watch keeps its keep-alive connections as its requests move from origin to origin: ' +
	'no origin is connected to more often than its --per-host places', async () => {
	const origins = await watchOrigins(4, ['--per-host', '2', '--concurrency', '4']);
	for (const origin of origins) {
		// Two requests at a time at most, so two connections, kept open between them (a pool of
		// --concurrency + --per-host sockets, 6, closed and opened them all the time).
		expect(origin.connections).toBeLessThanOrEqual(2);
	}
}, 60_000);

it('revisit watch keeps a socket per --per-host place of every origin in its schedule, ' +
	'when they are more than --concurrency: each origin keeps its connections', async () => {
	const origins = await watchOrigins(6, ['--per-host', '2', '--concurrency', '2']);
	for (const origin of origins) {
		// A pool of --concurrency × --per-host sockets (4) for 6 origins in turn closed one to
		// open another nearly every request; 2 places each, and one more for a request sent
		// before the schedule's origins were counted.
		expect(origin.connections).toBeLessThanOrEqual(3);
	}
}, 60_000);
