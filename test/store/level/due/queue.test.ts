import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../../../src/store/level/store.js';
import { MemoryStore } from '../../../../src/store/level/memory.js';
import { rateBin, type DueEntry } from '../../../../src/store/model/due.js';
import { dueQueueContract, stillAt } from '../../due-contract.js';

dueQueueContract(
	'LevelStore',
	async () => {
		const dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-due-'));
		let store = await LevelStore.open(dir);
		return {
			store,
			reopen: async () => {
				await store.close();
				store = await LevelStore.open(dir);
				return store;
			},
			cleanup: () => rm(dir, { recursive: true, force: true }),
		};
	},
	{ tokens: true },
);

// The memory store keeps its schedule in memory-level: a restart is the same store asked again.
dueQueueContract(
	'MemoryStore',
	async () => {
		const store = new MemoryStore();
		return { store, reopen: async () => store, cleanup: async () => {} };
	},
	{ tokens: true },
);

const entry = (url: string, due: number, rate = 1): DueEntry => ({ url, origin: 'http://a.test', due, rate });
const many = { max: 100, perHost: 100, leaseMs: 60_000, rate: 1e6, burst: 1e6 };

// What kill -9 leaves: the directory as it is on disk while the store is open (every write
// is in LevelDB's log before it returns), copied and opened as a restart would open it.
describe('LevelStore schedule after kill -9', () => {
	const dirs: string[] = [];
	afterEach(async () => {
		await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
	});
	const killed = async (work: (store: LevelStore) => Promise<void>): Promise<LevelStore> => {
		const dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-due-kill-'));
		dirs.push(dir, `${dir}-killed`);
		const store = await LevelStore.open(dir);
		try {
			await work(store);
			await cp(dir, `${dir}-killed`, { recursive: true });
		} finally {
			await store.close();
		}
		return LevelStore.open(`${dir}-killed`);
	};

	it('the URLs claimed at the kill are due at once, the others where they were, and the rate histogram is whole', async () => {
		const store = await killed(async (live) => {
			const queue = await live.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 100, 1), entry('u2', 200, 0.01), entry('u3', 5000, 0.01)]);
			await queue.remove(['u3']);
			await queue.put([entry('u4', 6000, 0.01)]);
			expect((await queue.claim({ ...many, max: 1 })).entries.map((e) => e.url)).toEqual(['u1']);
		});
		try {
			const queue = await store.dueQueue(stillAt(1000));
			expect((await queue.claim(many)).entries.map((e) => e.url)).toEqual(['u1', 'u2']);
			const bins = await queue.rateBins();
			expect(bins[rateBin(1)]).toBe(1);
			expect(bins[rateBin(0.01)]).toBe(2);
			expect(await queue.stats()).toMatchObject({ size: 3, claimed: 2, next: 6000 });
		} finally {
			await store.close();
		}
	});
});
