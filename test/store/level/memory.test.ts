import { MemoryStore } from '../../../src/store/level/memory.js';
import { storeContract } from '../contract.js';
import { SUPPORTS } from '../supports.js';

storeContract('MemoryStore', SUPPORTS.MemoryStore, async () => ({ store: new MemoryStore(), cleanup: async () => {} }));
