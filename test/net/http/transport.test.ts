import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/net/http/client.js';
import { createLimiter } from '../../../src/net/http/limiter.js';
import { send } from '../../../src/net/http/send.js';
import { inProcess, type AttemptSpec, type Transport } from '../../../src/net/http/transport.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const policy = { retries: 0, retryDelayMs: 1, maxRetryAfterMs: 1000 };

describe('transport', () => {
	let server: TestServer;
	const client = createHttpClient({
		userAgent: 'test',
		timeoutMs: 5000,
		acceptEncoding: 'identity',
		maxBodyBytes: 1 << 20,
		denyPrivate: false,
		insecure: false,
		maxSockets: 8,
	});
	beforeAll(async () => {
		server = await startServer((_req, res) => {
			res.setHeader('etag', '"a"');
			res.setHeader('last-modified', 'Tue, 01 Dec 2026 00:00:00 GMT');
			res.end('x'.repeat(10_000));
		});
	});
	afterAll(async () => {
		client.close();
		await server.close();
	});

	it('in process: a 2xx carrying the validators in `unless` is dropped unread, any other is read and hashed', async () => {
		const transport = inProcess(client.got, Date.now, Math.random);
		const signal = new AbortController().signal;
		const spec: AttemptSpec = { method: 'GET', url: server.url('/a'), headers: {}, bodyMode: 'hash' };
		const dropped = await transport.attempt({ ...spec, unless: { etag: '"a"', lastModified: 'Tue, 01 Dec 2026 00:00:00 GMT' } }, signal);
		expect(dropped.result).toMatchObject({ status: 200, headersOnly: true, etag: '"a"' });
		expect(dropped.result.hash).toBeUndefined();
		const moved = await transport.attempt({ ...spec, unless: { etag: '"b"', lastModified: 'Tue, 01 Dec 2026 00:00:00 GMT' } }, signal);
		expect(moved.result.hash).toMatch(/^[0-9a-f]+$/);
		const settled = await transport.attempt({ ...spec, unless: { etag: '"a"', lastModified: 'Tue, 01 Dec 2026 00:00:00 GMT', while: () => false } }, signal);
		expect(settled.result.hash).toMatch(/^[0-9a-f]+$/);
	});

	it("keeps the body with `keep` and `hand`, and the answer's header fields only with `hand` (a render's data request, handed to the browser)", async () => {
		const transport = inProcess(client.got, Date.now, Math.random);
		const signal = new AbortController().signal;
		const spec: AttemptSpec = { method: 'GET', url: server.url('/a'), headers: {}, bodyMode: 'keep' };
		const kept = await transport.attempt(spec, signal);
		expect(kept.result.body?.length).toBe(10_000);
		expect(kept.result.responseHeaders).toBeUndefined();
		const handed = await transport.attempt({ ...spec, bodyMode: 'hand' }, signal);
		expect(handed.result.body?.length).toBe(10_000);
		expect(handed.result.responseHeaders).toMatchObject({ etag: '"a"', 'last-modified': 'Tue, 01 Dec 2026 00:00:00 GMT', 'content-length': '10000' });
	});

	it('send() hands each attempt, as data, to the transport in deps, inside the limiter slot', async () => {
		const seen: AttemptSpec[] = [];
		let inSlot = 0;
		const inner = inProcess(client.got, Date.now, Math.random);
		const transport: Transport = {
			async attempt(spec, signal) {
				seen.push(spec);
				inSlot++;
				try {
					return await inner.attempt(spec, signal);
				} finally {
					inSlot--;
				}
			},
		};
		const limiter = createLimiter({ concurrency: 4, perHost: 1 });
		const deps = { http: client.got, limiter, clock: { now: Date.now }, random: Math.random, transport };
		const before = server.requests.length;
		const results = await Promise.all(
			['/b', '/c'].map((path) =>
				send(deps, policy, { method: 'GET', url: server.url(path), headers: { 'if-none-match': '"z"' } }, new AbortController().signal),
			),
		);
		expect(results.map((result) => result.status)).toEqual([200, 200]);
		expect(seen).toEqual([
			{ method: 'GET', url: server.url('/b'), headers: { 'if-none-match': '"z"' }, bodyMode: 'hash', unless: undefined },
			{ method: 'GET', url: server.url('/c'), headers: { 'if-none-match': '"z"' }, bodyMode: 'hash', unless: undefined },
		]);
		expect(inSlot).toBe(0);
		expect(server.requests.slice(before).map((request) => request.headers['if-none-match'])).toEqual(['"z"', '"z"']);
	});
});
