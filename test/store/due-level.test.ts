import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LevelStore } from '../../src/store/level.js';
import { MemoryStore } from '../../src/store/memory.js';
import { dueQueueContract } from './due-contract.js';

dueQueueContract('LevelStore', async () => {
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
});

// The memory store keeps its schedule in memory-level: a restart is the same store asked again.
dueQueueContract('MemoryStore', async () => {
	const store = new MemoryStore();
	return { store, reopen: async () => store, cleanup: async () => {} };
});
