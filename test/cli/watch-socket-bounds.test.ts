import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, spawnCli, tempDir } from '../helpers/cli.js';
import { startWatchOrigin, type WatchOrigin } from '../helpers/watch-origin.js';
import { waitFor } from '../helpers/wait-for.js';

const QUIET = ['--robots', 'ignore', '--audit', '0', '--ndjson', '-q'];
const MiB = 1024 * 1024;

/** A process's resident memory, in bytes, from /proc. */
function rss(pid: number): number {
	const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
	return Number(kb) * 1024;
}

/**
 * Streams up to `total` bytes with no newline into the socket, a 1 MiB buffer at a time
 * while it takes them, until the other end closes: what was answered, and how much was
 * handed to the socket by then.
 */
async function floodLine(socketPath: string, total: number): Promise<{ answer: string; offered: number }> {
	const socket = net.connect(socketPath);
	const chunks: Buffer[] = [];
	socket.on('data', (chunk: Buffer) => chunks.push(chunk));
	// The watch closes while this client still writes: EPIPE is the expected end.
	socket.on('error', () => {});
	let open = true;
	const closed = new Promise<void>((resolve) =>
		socket.once('close', () => {
			open = false;
			resolve();
		}),
	);
	await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
	const block = Buffer.alloc(MiB, 0x61);
	let offered = 0;
	while (open && offered < total) {
		offered += block.length;
		if (!socket.write(block)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
	}
	socket.end();
	await closed;
	return { answer: Buffer.concat(chunks).toString('utf8'), offered };
}

describe("a watch's socket takes a request line of 64 KiB at most", () => {
	let origin: WatchOrigin;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		origin = await startWatchOrigin(0);
		store = await tempDir();
	});
	afterEach(async () => {
		await origin.close();
		await store.cleanup();
	});

	it('700 MB without a newline: answered REQUEST_TOO_LONG and closed after the first MiBs, the watch keeps its memory, and answers the next read', async () => {
		const urls = [origin.url('/p0'), origin.url('/p1')];
		const watch = spawnCli(['watch', '--store', store.dir, '--rate', '100/s', ...QUIET], urls.join('\n'));
		try {
			await waitFor(() => ndjson(watch.stdout()).length >= 2, 'both pages checked');
			const socketPath = path.join(store.dir, 'watch.sock');
			await waitFor(() => existsSync(socketPath), 'the socket');
			const before = rss(watch.child.pid!);

			const { answer, offered } = await floodLine(socketPath, 700 * MiB);
			expect(JSON.parse(answer)).toEqual({ error: { code: 'REQUEST_TOO_LONG', message: 'a request is one line of at most 65536 bytes' } });
			// What the socket's buffers held when the watch stopped reading, not the 700 MB.
			expect(offered).toBeLessThan(32 * MiB);
			expect(rss(watch.child.pid!) - before).toBeLessThan(50 * 1000 * 1000);

			const stats = await spawnCli(['stats', '--json', '--store', store.dir], '').done;
			expect(stats).toMatchObject({ status: 0, stderr: '' });
			expect(ndjson(stats.stdout)).toEqual([expect.objectContaining({ host: new URL(urls[0]!).origin, urls: 2 })]);
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);
	}, 120_000);
});
