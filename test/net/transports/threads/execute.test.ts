import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor } from '../../../../src/net/transports/threads/execute.js';
import { startServer, type TestServer } from '../../../helpers/server.js';

describe('createExecutor', () => {
	let server: TestServer;
	const executor = createExecutor({ userAgent: 'revisit-test', timeoutMs: 5000, acceptEncoding: 'identity', maxSockets: 4 });
	beforeAll(async () => {
		server = await startServer((req, res) => {
			res.setHeader('etag', '"a"');
			if (req.headers['if-none-match'] === '"a"') return void res.writeHead(304).end();
			res.end('body');
		});
	});
	afterAll(async () => {
		executor.close();
		await server.close();
	});

	it('sends with the run client settings and the spec headers, and answers like the in-process transport', async () => {
		const signal = new AbortController().signal;
		const full = await executor.attempt({ method: 'GET', url: server.url('/p'), headers: {}, bodyMode: 'keep' }, signal);
		expect(full.result).toMatchObject({ status: 200, etag: '"a"', body: Buffer.from('body') });
		const notModified = await executor.attempt({ method: 'GET', url: server.url('/p'), headers: { 'if-none-match': '"a"' }, bodyMode: 'hash' }, signal);
		expect(notModified.result.status).toBe(304);
		const dropped = await executor.attempt({ method: 'GET', url: server.url('/p'), headers: {}, bodyMode: 'hash', unless: { etag: '"a"' } }, signal);
		expect(dropped.result).toMatchObject({ status: 200, headersOnly: true });
		expect(server.requests.map((request) => [request.headers['user-agent'], request.headers['if-none-match']])).toEqual([
			['revisit-test', undefined],
			['revisit-test', '"a"'],
			['revisit-test', undefined],
		]);
	});
});
