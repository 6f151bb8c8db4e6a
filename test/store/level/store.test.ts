import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { describe, expect, it } from 'vitest';
import { LevelStore } from '../../../src/store/level/store.js';
import { RECORD_VERSION } from '../../../src/store/model/types.js';
import { tempDir } from '../../helpers/cli.js';
import { storeContract } from '../contract.js';
import { SUPPORTS } from '../supports.js';

storeContract('LevelStore', SUPPORTS.LevelStore, async () => {
	const { dir, cleanup } = await tempDir();
	return { store: await LevelStore.open(dir), cleanup };
});

describe('LevelStore.open', () => {
	it('refuses a store that another process holds, with code STORE_LOCKED', async () => {
		const { dir, cleanup } = await tempDir();
		const first = await LevelStore.open(dir);
		try {
			await expect(LevelStore.open(dir)).rejects.toMatchObject({ code: 'STORE_LOCKED', message: expect.stringContaining(dir) });
		} finally {
			await first.close();
			await cleanup();
		}
	});

	it('refuses a store written in a newer format, and leaves it alone', async () => {
		const { dir, cleanup } = await tempDir();
		const db = new Level<string, unknown>(dir, { valueEncoding: 'json' });
		await db.sublevel<string, unknown>('meta', { valueEncoding: 'json' }).put('format', 99);
		await db.close();
		try {
			await expect(LevelStore.open(dir)).rejects.toMatchObject({ code: 'STORE_FORMAT' });
			const again = new Level<string, unknown>(dir, { valueEncoding: 'json' });
			expect(await again.sublevel<string, unknown>('meta', { valueEncoding: 'json' }).get('format')).toBe(99);
			await again.close();
		} finally {
			await cleanup();
		}
	});

	it('refuses a directory that is not a LevelDB, with code STORE_OPEN_FAILED', async () => {
		const { dir, cleanup } = await tempDir();
		const target = path.join(dir, 'store');
		await mkdir(target);
		await writeFile(path.join(target, 'CURRENT'), 'garbage\n');
		try {
			await expect(LevelStore.open(target)).rejects.toMatchObject({ code: 'STORE_OPEN_FAILED' });
		} finally {
			await cleanup();
		}
	});
});

describe('LevelStore.readPass', () => {
	/** The store's table files this process has mapped (LevelDB maps each table it holds open). */
	const mappedTables = async (dir: string) =>
		new Set(
			(await readFile('/proc/self/maps', 'utf8'))
				.split('\n')
				.filter((line) => line.includes(dir) && line.endsWith('.ldb'))
				.map((line) => line.split(/\s+/).pop()),
		).size;

	it('reads every record once, in key order, across the reopenings that let go of the tables read, and leaves the store usable', async () => {
		const { dir, cleanup } = await tempDir();
		// More than two of its 50,000-record segments, with values that fill ~10 tables of 2 MiB.
		const count = 120_000;
		const key = (n: number) => `https://example.org/${String(n).padStart(6, '0')}`;
		let store = await LevelStore.open(dir);
		try {
			for (let start = 0; start < count; start += 10_000) {
				await store.batch(
					Array.from({ length: 10_000 }, (_, i) => ({
						type: 'put' as const,
						key: key(start + i),
						value: {
							v: RECORD_VERSION,
							status: 200,
							etag: `"${randomBytes(60).toString('base64')}"`,
							hash: randomBytes(32).toString('hex'),
							lastChecked: start + i,
						},
					})),
				);
			}
			// Reopened, so that the records are in tables rather than the log.
			await store.close();
			store = await LevelStore.open(dir);
			let n = 0;
			for await (const [url, record] of store.readPass()) {
				expect(url).toBe(key(n));
				expect(record.lastChecked).toBe(n);
				n++;
			}
			expect(n).toBe(count);
			const afterPass = await mappedTables(dir);
			for await (const entry of store.entries()) void entry;
			const afterEntries = await mappedTables(dir);
			// The whole store mapped after entries(); after readPass, the last segment's tables only.
			expect(afterPass).toBeLessThan(afterEntries);
			await store.batch([{ type: 'put', key: key(count), value: { v: RECORD_VERSION, status: 200, lastChecked: count } }]);
			expect((await store.getMany([key(0), key(count)])).map((record) => record?.lastChecked)).toEqual([0, count]);
		} finally {
			await store.close();
			await cleanup();
		}
	}, 60_000);
});
