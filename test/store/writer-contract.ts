import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECORD_VERSION, type StoreReader, type StoreWriter, type UrlRecord } from '../../src/store/model/types.js';

const record = (over: Partial<UrlRecord> = {}): UrlRecord => ({
	v: RECORD_VERSION,
	status: 200,
	etag: 'W/"a b"',
	lastModified: 'Mon, 14 Jul 2025 09:02:11 GMT',
	hash: 'ab'.repeat(16),
	lastChecked: 1,
	...over,
});

/**
 * The contract every StoreWriter runs: what a batch does, seen through the same store's
 * reads (what each kind of record reads back as is the reader's contract,
 * test/store/reader-contract.ts). test/store/supports.ts says which backends run it.
 */
export function writerContract(name: string, open: () => Promise<{ store: StoreReader & StoreWriter; cleanup(): Promise<void> }>): void {
	describe(`${name} (StoreWriter contract)`, () => {
		let store: StoreReader & StoreWriter;
		let cleanup: () => Promise<void>;
		beforeEach(async () => {
			({ store, cleanup } = await open());
		});
		afterEach(async () => {
			await store.close();
			await cleanup();
		});

		it('applies puts and deletes in one batch, the last write winning', async () => {
			await store.batch([
				{ type: 'put', key: 'a', value: record({ lastChecked: 1 }) },
				{ type: 'put', key: 'b', value: record() },
			]);
			await store.batch([
				{ type: 'put', key: 'a', value: record({ lastChecked: 2 }) },
				{ type: 'del', key: 'b' },
			]);
			expect(await store.getMany(['a', 'b'])).toEqual([record({ lastChecked: 2 }), undefined]);
		});
	});
}
