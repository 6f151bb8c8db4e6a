import { describe, expect, it } from 'vitest';
import { checkedStore, withGivenStore } from '../../src/store/given.js';
import { LevelStore } from '../../src/store/level/store.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { tempDir } from '../helpers/cli.js';

describe('a store given as a spec or as an opened store', () => {
	it('opens a spec for the work and closes it even when the work fails; leaves an opened store open', async () => {
		const { dir, cleanup } = await tempDir();
		try {
			await expect(withGivenStore(dir, {}, async () => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');
			// Closed: the LevelDB lock is free again.
			const store = await LevelStore.open(dir);
			await withGivenStore(store, {}, async (given) => expect(given).toBe(store));
			expect(await store.getMany(['https://a.example/'])).toEqual([undefined]);
			await store.close();
		} finally {
			await cleanup();
		}
	});

	it('takes a non-empty string or a value with the store methods, and names what it got otherwise', () => {
		const memory = new MemoryStore();
		expect(checkedStore('.revisit')).toBe('.revisit');
		expect(checkedStore(memory)).toBe(memory);
		expect(() => checkedStore({ getMany: () => [] }, 'runtime.store')).toThrow(
			expect.objectContaining({
				code: 'USAGE',
				message:
					'`runtime.store` must be a store directory, a redis:// URL or an opened store (openStore(dir)); ' +
					'got an object without getHosts(), batch(), entries(), getTexts(), getVersions(), close()',
			}),
		);
		expect(() => checkedStore(42)).toThrow('got 42');
		expect(() => checkedStore('')).toThrow('`store` is empty: give a store directory or a redis:// URL');
		expect(() => checkedStore(() => {})).toThrow('got a function');
	});
});
