import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LevelStore } from '../../../src/store/level/store.js';
import { openStore } from '../../../src/store/open.js';
import { serveStore } from '../../../src/store/socket/serve.js';
import { SocketStore } from '../../../src/store/socket/store.js';
import { RECORD_VERSION, type StoreOperation } from '../../../src/store/model/types.js';
import { tempDir } from '../../helpers/cli.js';
import { readerContract } from '../reader-contract.js';
import { SUPPORTS, supportsContract } from '../supports.js';

/**
 * The reader's contract through a watch's socket: the writes go to the store the "watch"
 * holds, every read goes through SocketStore, so each read the contract checks is the
 * one that came over the wire.
 */
readerContract('SocketStore (reads through the socket)', async () => {
	const { dir, cleanup } = await tempDir();
	const held = await LevelStore.open(dir);
	const server = await serveStore(dir, held);
	const reader = (await SocketStore.connect(dir))!;
	return {
		reader,
		write: (operations: readonly StoreOperation[]) => held.batch(operations),
		cleanup: async () => {
			await server.close();
			await held.close();
			await cleanup();
		},
	};
});

// What the socket store is, by its manifest: a reader that takes hand overrides, with no write or schedule to refuse.
supportsContract('SocketStore', SUPPORTS.SocketStore, async () => {
	const { dir, cleanup } = await tempDir();
	const held = await LevelStore.open(dir);
	const server = await serveStore(dir, held);
	return {
		store: (await SocketStore.connect(dir))!,
		cleanup: async () => {
			await server.close();
			await held.close();
			await cleanup();
		},
	};
});

const record = (n: number) => ({ v: RECORD_VERSION, status: 200, etag: `"${n}"`, lastChecked: n });

describe('a store held by a watch, read through its socket', () => {
	it('openStore with viaWatch reads through the watch; without, names the watch in STORE_LOCKED; with none answering, STORE_LOCKED as before', async () => {
		const { dir, cleanup } = await tempDir();
		const held = await LevelStore.open(dir);
		try {
			await held.batch([{ type: 'put', key: 'https://a.example/', value: record(1) }]);
			await expect(openStore(dir, { create: false, viaWatch: true })).rejects.toMatchObject({
				code: 'STORE_LOCKED',
				message: `store ${dir} is locked: another revisit is using it`,
			});
			const server = await serveStore(dir, held);
			const reader = await openStore(dir, { create: false, viaWatch: true });
			expect(await reader.getMany(['https://a.example/', 'https://b.example/'])).toEqual([record(1), undefined]);
			expect(reader).not.toHaveProperty('batch');
			expect(reader).not.toHaveProperty('dueQueue');
			await expect(openStore(dir, { create: false })).rejects.toMatchObject({
				code: 'STORE_LOCKED',
				message: expect.stringContaining('a running revisit watch holds it'),
			});
			await reader.close();
			await server.close();
			expect(existsSync(path.join(dir, 'watch.sock'))).toBe(false);
		} finally {
			await held.close();
			await cleanup();
		}
	});

	it("takes hosts' hand overrides, and only from a watch that handles them; has no other write", async () => {
		const { dir, cleanup } = await tempDir();
		const held = await LevelStore.open(dir);
		try {
			const seen: unknown[] = [];
			let server = await serveStore(dir, held, { override: async (overrides) => void seen.push(...overrides) });
			let reader = (await SocketStore.connect(dir))!;
			await reader.overrideHosts([
				['https://a.example', 'hash-only'],
				['https://b.example', undefined],
			]);
			expect(seen).toEqual([
				['https://a.example', 'hash-only'],
				['https://b.example', undefined],
			]);
			expect(reader).not.toHaveProperty('batch');
			await server.close();
			server = await serveStore(dir, held);
			reader = (await SocketStore.connect(dir))!;
			await expect(reader.overrideHosts([['https://a.example', 'hash-only']])).rejects.toMatchObject({
				code: 'STORE_LOCKED',
				message: expect.stringContaining("takes reads and hosts' hand overrides only"),
			});
			expect(seen).toHaveLength(2);
			await server.close();
		} finally {
			await held.close();
			await cleanup();
		}
	});

	it('a socket nobody listens on (left by a killed watch) is ignored, and replaced by the next watch', async () => {
		const { dir, cleanup } = await tempDir();
		const held = await LevelStore.open(dir);
		try {
			await writeFile(path.join(dir, 'watch.sock'), 'left behind');
			expect(await SocketStore.connect(dir)).toBeUndefined();
			await expect(openStore(dir, { create: false, viaWatch: true })).rejects.toMatchObject({ code: 'STORE_LOCKED' });
			const server = await serveStore(dir, held);
			expect(lstatSync(path.join(dir, 'watch.sock')).isSocket()).toBe(true);
			expect(await SocketStore.connect(dir)).toBeDefined();
			await server.close();
		} finally {
			await held.close();
			await cleanup();
		}
	});

	it('a store whose path is too long for a socket is answered through a link to one in the temporary directory', async () => {
		const { dir: base, cleanup } = await tempDir();
		const dir = path.join(base, 'a-store-directory-with-a-rather-long-name'.repeat(3));
		await mkdir(dir);
		const held = await LevelStore.open(dir);
		try {
			await held.batch([{ type: 'put', key: 'https://a.example/', value: record(2) }]);
			const server = await serveStore(dir, held);
			expect(lstatSync(path.join(dir, 'watch.sock')).isSymbolicLink()).toBe(true);
			const reader = (await SocketStore.connect(dir))!;
			expect(await reader.getMany(['https://a.example/'])).toEqual([record(2)]);
			await server.close();
			expect(existsSync(path.join(dir, 'watch.sock'))).toBe(false);
			expect(existsSync(server.path)).toBe(false);
		} finally {
			await held.close();
			await cleanup();
		}
	});

	it('streams an iteration: a reader that stops early ends only its own, and the watch answers the next', async () => {
		const { dir, cleanup } = await tempDir();
		const held = await LevelStore.open(dir);
		try {
			const many = Array.from({ length: 20_000 }, (_, i) => ({
				type: 'put' as const,
				key: `https://a.example/${String(i).padStart(6, '0')}`,
				value: record(i),
			}));
			await held.batch(many);
			const server = await serveStore(dir, held);
			const reader = (await SocketStore.connect(dir))!;
			let read = 0;
			for await (const [key] of reader.entries()) {
				expect(key).toBe(many[read]!.key);
				if (++read === 10) break;
			}
			let all = 0;
			for await (const _ of reader.entries()) all++;
			expect(all).toBe(many.length);
			await server.close();
		} finally {
			await held.close();
			await cleanup();
		}
	}, 30_000);

	it('a reader whose watch stops mid-read fails with STORE_READ_FAILED, not a hang', async () => {
		const { dir, cleanup } = await tempDir();
		const held = await LevelStore.open(dir);
		try {
			await held.batch(Array.from({ length: 20_000 }, (_, i) => ({ type: 'put' as const, key: `k${i}`, value: record(i) })));
			const server = await serveStore(dir, held);
			const reader = (await SocketStore.connect(dir))!;
			const reading = (async () => {
				let n = 0;
				for await (const _ of reader.entries()) if (++n === 5) await server.close();
				return n;
			})();
			await expect(reading).rejects.toMatchObject({ code: 'STORE_READ_FAILED', message: expect.stringContaining('stopped answering') });
		} finally {
			await held.close();
			await cleanup();
		}
	}, 30_000);
});

// A link named watch.sock that points nowhere is no watch either.
it('a dangling link in place of the socket is no watch', async () => {
	const { dir, cleanup } = await tempDir();
	try {
		await symlink(path.join(dir, 'gone'), path.join(dir, 'watch.sock'));
		expect(await SocketStore.connect(dir)).toBeUndefined();
	} finally {
		await cleanup();
	}
});
