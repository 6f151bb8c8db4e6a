import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../../src/store/level/store.js';
import { serveStore, type StoreServer } from '../../../src/store/socket/serve.js';
import { SocketStore } from '../../../src/store/socket/store.js';
import { RECORD_VERSION } from '../../../src/store/model/types.js';
import { tempDir } from '../../helpers/cli.js';

/** A raw client on the watch's socket: what it was answered, and when the watch closed the connection. */
function rawClient(socketPath: string) {
	const socket = net.connect(socketPath);
	const chunks: Buffer[] = [];
	socket.on('data', (chunk: Buffer) => chunks.push(chunk));
	// The watch closes while this client may still be writing: EPIPE is the expected end.
	socket.on('error', () => {});
	const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
	return { socket, closed, answer: () => Buffer.concat(chunks).toString('utf8') };
}

const record = (n: number) => ({ v: RECORD_VERSION, status: 200, etag: `"${n}"`, lastChecked: n });

describe("the watch socket's bounds on a request line", () => {
	let dir: string;
	let cleanup: () => Promise<void>;
	let held: LevelStore;
	let server: StoreServer | undefined;
	beforeEach(async () => {
		({ dir, cleanup } = await tempDir());
		held = await LevelStore.open(dir);
	});
	afterEach(async () => {
		await server?.close();
		await held.close();
		await cleanup();
	});

	it(
		'a line past 64 KiB is answered REQUEST_TOO_LONG and closed, with no more read; ' + 'a get of 1000 long keys, over 64 KiB in all, is still answered',
		async () => {
			const keys = Array.from({ length: 1000 }, (_, i) => `https://a.example/${'x'.repeat(200)}/${i}`);
			await held.batch(keys.map((key, i) => ({ type: 'put' as const, key, value: record(i) })));
			server = await serveStore(dir, held);
			const client = rawClient(path.join(dir, 'watch.sock'));
			// 1 MiB without a newline, once: the watch stops reading past 64 KiB.
			client.socket.write(Buffer.alloc(1024 * 1024, 0x61));
			await client.closed;
			expect(JSON.parse(client.answer())).toEqual({ error: { code: 'REQUEST_TOO_LONG', message: 'a request is one line of at most 65536 bytes' } });

			const reader = (await SocketStore.connect(dir))!;
			const values = await reader.getMany(keys);
			expect(values).toEqual(keys.map((_, i) => record(i)));
		},
	);

	it('a line not whole within the deadline is answered REQUEST_TIMEOUT and closed; the next request is answered', async () => {
		server = await serveStore(dir, held, { requestDeadlineMs: 100 });
		const client = rawClient(path.join(dir, 'watch.sock'));
		client.socket.write('{"v":1,"op":"entr');
		await client.closed;
		expect(JSON.parse(client.answer())).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: 'a request line must come whole within 100 ms' } });

		await held.batch([{ type: 'put', key: 'https://a.example/', value: record(1) }]);
		const reader = (await SocketStore.connect(dir))!;
		expect(await reader.getMany(['https://a.example/'])).toEqual([record(1)]);
	});
});
