import { MemoryStore } from '../../src/store/memory.js';
import { storeContract } from './contract.js';

storeContract('MemoryStore', async () => ({ store: new MemoryStore(), cleanup: async () => {} }));
