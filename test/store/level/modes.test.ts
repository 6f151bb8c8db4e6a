import { chmod, lstat, mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeNarrowed, makePrivateDir, narrowModes } from '../../../src/store/level/modes.js';
import { tempDir } from '../../helpers/cli.js';

const mode = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

describe('a store directory kept to its owner', () => {
	it('makePrivateDir makes the directory 0700 (and its missing parents), once', async () => {
		const { dir, cleanup } = await tempDir();
		try {
			const store = path.join(dir, 'a', 'b', 'store');
			expect(await makePrivateDir(store)).toBe(true);
			expect(await mode(store)).toBe(0o700);
			expect(await makePrivateDir(store)).toBe(false);
		} finally {
			await cleanup();
		}
	});

	it("narrowModes takes the group's and others' bits off the directory and every file under it, leaves links alone, and says what it changed", async () => {
		const { dir, cleanup } = await tempDir();
		try {
			await chmod(dir, 0o755);
			await writeFile(path.join(dir, 'CURRENT'), 'MANIFEST-000002\n', { mode: 0o644 });
			await writeFile(path.join(dir, 'LOCK'), '');
			await chmod(path.join(dir, 'LOCK'), 0o664);
			await writeFile(path.join(dir, 'LOG'), '', { mode: 0o600 });
			await mkdir(path.join(dir, 'sub'), { mode: 0o750 });
			await writeFile(path.join(dir, 'sub', 'x'), '', { mode: 0o640 });
			await symlink('/etc/hostname', path.join(dir, 'link'));
			const before = (await lstat('/etc/hostname')).mode;

			const narrowed = await narrowModes(dir);
			expect(await mode(dir)).toBe(0o700);
			expect(await mode(path.join(dir, 'CURRENT'))).toBe(0o600);
			expect(await mode(path.join(dir, 'LOCK'))).toBe(0o600);
			expect(await mode(path.join(dir, 'sub'))).toBe(0o700);
			expect(await mode(path.join(dir, 'sub', 'x'))).toBe(0o600);
			expect((await lstat('/etc/hostname')).mode).toBe(before);
			expect(narrowed.map((entry) => path.relative(dir, entry.path)).sort()).toEqual(['', 'CURRENT', 'LOCK', 'sub', 'sub/x']);
			expect(describeNarrowed(dir, narrowed)).toMatch(new RegExp(`^store ${dir} was open to other users: made `));
			expect(await narrowModes(dir)).toEqual([]);
		} finally {
			await cleanup();
		}
	});

	it('describeNarrowed groups what it changed by kind and modes', () => {
		const at = (name: string, directory: boolean, from: number, to: number) => ({ path: path.join('/s', name), directory, from, to });
		expect(
			describeNarrowed('/s', [at('', true, 0o755, 0o700), at('CURRENT', false, 0o644, 0o600), at('LOG', false, 0o644, 0o600), at('LOCK', false, 0o664, 0o600)]),
		).toBe('store /s was open to other users: made its directory 0700 (was 0755), 2 files 0600 (were 0644) and 1 file 0600 (was 0664)');
		expect(describeNarrowed('/s', [at('CURRENT', false, 0o644, 0o600)])).toBe('store /s was open to other users: made 1 file 0600 (was 0644)');
		expect(describeNarrowed('/s', [at('a', true, 0o755, 0o700), at('b', true, 0o755, 0o700)])).toBe(
			'store /s was open to other users: made 2 directories 0700 (were 0755)',
		);
	});
});
