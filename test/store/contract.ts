import type { StoreReader, StoreWriter } from '../../src/store/model/types.js';
import { readerContract } from './reader-contract.js';
import { supportsContract, type Capability } from './supports.js';
import { writerContract } from './writer-contract.js';

/**
 * The suites of a backend that reads what it writes itself (LevelDB, memory-level, Redis),
 * from its manifest (`SUPPORTS` in test/store/supports.ts): the manifest checked against
 * its members, then the reader's contract and the writer's, each read seen through the
 * same store. Its schedule runs test/store/due-contract.ts, which needs a restart as well.
 */
export function storeContract(
	name: string,
	supports: readonly Capability[],
	open: () => Promise<{ store: StoreReader & StoreWriter; cleanup(): Promise<void> }>,
): void {
	supportsContract(name, supports, open);
	if (supports.includes('read')) {
		readerContract(name, async () => {
			const { store, cleanup } = await open();
			return { reader: store, write: (operations) => store.batch(operations), cleanup };
		});
	}
	if (supports.includes('write')) writerContract(name, open);
}
