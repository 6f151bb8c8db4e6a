import { describe, expect, it } from 'vitest';
import { pendingDeliveries } from '../../../src/io/outbox/pending.js';
import { MemoryStore } from '../../../src/store/level/memory.js';
import { RECORD_VERSION } from '../../../src/store/model/types.js';

describe('pendingDeliveries', () => {
	it('counts each target once, and masks a target an older revisit stored with its query secret in clear', async () => {
		const store = new MemoryStore();
		const shown = 'notify json://127.0.0.1:8080/j?token=s3cret&v=2';
		await store.batch(
			[1, 2].map((at) => ({
				type: 'putDelivery' as const,
				key: `a1/000000000000${at}-00000000-0000000${at}`,
				value: { v: RECORD_VERSION, target: 'a1', shown, at, payload: {} },
			})),
		);
		expect(await pendingDeliveries(store)).toEqual([{ shown: 'notify json://127.0.0.1:8080/j?token=***&v=2', pending: 2, oldestAt: 1, newestAt: 2 }]);
	});
});
