import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/base/util/write-file-atomic.js';

describe('writeFileAtomic', () => {
	it('replaces the file atomically, leaving no temporary file behind', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'revisit-atomic-'));
		try {
			const file = path.join(dir, 'revisit.prom');
			await writeFile(file, 'old\n');
			await writeFileAtomic(file, 'new\n');
			expect(await readFile(file, 'utf8')).toBe('new\n');
			expect(await readdir(dir)).toEqual(['revisit.prom']);
			await expect(writeFileAtomic(path.join(dir, 'no', 'such.prom'), 'x')).rejects.toThrow(/ENOENT/);
			expect(await readdir(dir)).toEqual(['revisit.prom']);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
	it('without sync, still replaces whole and leaves nothing behind', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'revisit-atomic-'));
		try {
			const file = path.join(dir, 'body.html');
			await writeFileAtomic(file, Buffer.from([1, 2, 3]), { sync: false });
			expect([...(await readFile(file))]).toEqual([1, 2, 3]);
			expect(await readdir(dir)).toEqual(['body.html']);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});
