import { MemoryStore } from '../../../src/store/level/memory.js';
import { storeContract } from '../contract.js';

storeContract('MemoryStore', async () => ({ store: new MemoryStore(), cleanup: async () => {} }));
