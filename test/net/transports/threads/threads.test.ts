import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThreadPool } from '../../../../src/net/transports/threads/threads.js';
import { startServer, type TestServer } from '../../../helpers/server.js';

const settings = { userAgent: 'revisit-test', timeoutMs: 5000, acceptEncoding: 'identity', maxSockets: 8 };
const spec = (url: string) => ({ method: 'GET' as const, url, headers: {}, bodyMode: 'keep' as const });

describe('startThreadPool', () => {
	let server: TestServer;
	const closed: string[] = [];
	beforeAll(async () => {
		server = await startServer((req, res) => {
			req.on('close', () => closed.push(req.url!));
			if (req.url === '/hang') return;
			setTimeout(() => res.end(`body of ${req.url}`), 10);
		});
	});
	afterAll(() => server.close());

	it('sends attempts from its threads and hands back bodies as Buffers', async () => {
		const pool = startThreadPool(2, settings);
		try {
			await pool.ready;
			const attempts = await Promise.all(
				Array.from({ length: 20 }, (_, i) => pool.transport.attempt(spec(server.url(`/a${i}`)), new AbortController().signal)),
			);
			attempts.forEach((attempt, i) => {
				expect(Buffer.isBuffer(attempt.result.body)).toBe(true);
				expect(attempt.result.body!.toString()).toBe(`body of /a${i}`);
			});
			expect(pool.workers()).toHaveLength(2);
		} finally {
			await pool.close();
		}
	});

	it('an aborted attempt rejects at once and its thread drops the request', async () => {
		const pool = startThreadPool(1, settings);
		try {
			await pool.ready;
			const controller = new AbortController();
			const pending = pool.transport.attempt(spec(server.url('/hang')), controller.signal);
			await expect.poll(() => server.seen('/hang').length).toBe(1);
			controller.abort(new Error('stop'));
			await expect(pending).rejects.toThrow('stop');
			await expect.poll(() => closed.includes('/hang')).toBe(true);
		} finally {
			await pool.close();
		}
	});

	it('a thread that dies fails its attempts as retryable WORKER_DIED, and a new thread takes its place', async () => {
		const pool = startThreadPool(1, settings);
		try {
			await pool.ready;
			const signal = new AbortController().signal;
			const before = server.seen('/hang').length;
			const pending = pool.transport.attempt(spec(server.url('/hang')), signal);
			await expect.poll(() => server.seen('/hang').length).toBe(before + 1);
			const dead = pool.workers()[0]!;
			await dead.terminate();
			const attempt = await pending;
			expect(attempt).toMatchObject({ retryable: true, result: { status: 0, error: { code: 'WORKER_DIED' } } });
			await expect.poll(() => pool.workers()[0] !== dead).toBe(true);
			const next = await pool.transport.attempt(spec(server.url('/after')), signal);
			expect(next.result.body!.toString()).toBe('body of /after');
		} finally {
			await pool.close();
		}
	});
});
