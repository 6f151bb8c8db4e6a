import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level.js';
import { tempDir } from '../helpers/cli.js';
import { storeContract } from './contract.js';

storeContract('LevelStore', async () => {
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
