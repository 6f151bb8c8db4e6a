import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/level/memory.js';
import { blobSize, packText, textKey } from '../../src/store/model/text-blob.js';
import { collectTexts } from '../../src/store/text-gc.js';
import { RECORD_VERSION, type StoreOperation } from '../../src/store/model/types.js';

const page = (url: string, text: string): StoreOperation => ({
	type: 'put',
	key: url,
	value: { v: RECORD_VERSION, status: 200, lastChecked: 1, text: { hash: textKey(text) } },
});
const blob = (text: string, at: number): StoreOperation => ({ type: 'putText', key: textKey(text), value: packText(text, at) });

async function keys(store: MemoryStore): Promise<string[]> {
	const out: string[] = [];
	for await (const [key] of store.textEntries()) out.push(key);
	return out;
}

describe('collectTexts', () => {
	it('deletes the blobs no record points to, and counts the rest', async () => {
		const store = new MemoryStore();
		await store.batch([page('https://a/1', 'shared'), page('https://a/2', 'shared'), blob('shared', 1), blob('orphan', 2)]);
		const result = await collectTexts(store, { maxBytes: 1 << 20 });
		expect(result).toEqual({ versions: 0, bytes: blobSize(packText('shared', 1)), blobs: 1, unreferenced: 1, evicted: 0 });
		expect(await keys(store)).toEqual([textKey('shared')]);
	});

	it('past the bound, evicts the least recently taken texts first, down to nine tenths of it', async () => {
		const store = new MemoryStore();
		const texts = ['oldest text', 'older text', 'newer text', 'newest text'];
		await store.batch(texts.flatMap((text, i) => [page(`https://a/${i}`, text), blob(text, 10 + i)]));
		const each = blobSize(packText('older text', 0));
		const result = await collectTexts(store, { maxBytes: 3 * each });
		expect(result.evicted).toBe(2);
		expect((await keys(store)).sort()).toEqual([textKey('newer text'), textKey('newest text')].sort());
		expect(result.bytes).toBeLessThanOrEqual(Math.floor(3 * each * 0.9));
	});
});
