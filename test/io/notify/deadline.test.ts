import { afterEach, describe, expect, it } from 'vitest';
import { notifier } from '../../../src/io/notify/index.js';
import { startDripSmtp, startHangingHttp, type HangingServer } from './hanging.js';
import { MESSAGE } from './receiver.js';

let server: HangingServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** A deadline far past the test's own timeout: only the abort can end these sends in time. */
const FOREVER = 10 * 60_000;

/** Aborts once the server has the client where it holds it. */
const abortWhenReached = (hanging: HangingServer): AbortSignal => {
	const controller = new AbortController();
	void hanging.reached.then(() => controller.abort());
	return controller.signal;
};

describe('mail: a deadline on the whole SMTP exchange', () => {
	it('a server that drips 250- lines forever fails at the deadline, naming the server, and the connection is closed', async () => {
		server = await startDripSmtp();
		const target = notifier(`mailto://${server.host}:${server.port}?from=revisit@example.org&to=me@example.org`, { timeoutMs: 2000 });
		await expect(target.send(MESSAGE)).rejects.toThrow(`mail server ${server.host}:${server.port} did not finish within 2000 ms`);
		await server.left;
	});

	it('an abort ends the exchange at once, long before the deadline', async () => {
		server = await startDripSmtp();
		const target = notifier(`mailto://${server.host}:${server.port}?to=me@example.org`, { timeoutMs: FOREVER });
		await expect(target.send(MESSAGE, abortWhenReached(server))).rejects.toThrow(/stopped/);
		await server.left;
	});
});

describe('native POSTs: a deadline on each request', () => {
	it('a receiver that never answers fails at the deadline, naming it, and the connection is closed', async () => {
		server = await startHangingHttp();
		const target = notifier(`json://${server.host}:${server.port}/hook`, { timeoutMs: 2000 });
		await expect(target.send(MESSAGE)).rejects.toThrow(`${server.host}:${server.port} did not finish within 2000 ms`);
		await server.left;
	});

	it.each([
		['json', (port: number) => `json://127.0.0.1:${port}/hook`],
		['ntfy', (port: number) => `ntfy://127.0.0.1:${port}/prices`],
		['matrix', (port: number) => `matrix://TOKEN1234@127.0.0.1:${port}/#room`],
	])('%s: an abort ends the request at once, long before the deadline', async (_name, url) => {
		server = await startHangingHttp();
		const target = notifier(url(server.port), { timeoutMs: FOREVER });
		await expect(target.send(MESSAGE, abortWhenReached(server))).rejects.toThrow(/stopped/);
		await server.left;
		expect(server.clients()).toBe(1);
	});
});
