import { runKey } from '../../src/store/model/run-key.js';
import { blobSize, packText, textKey } from '../../src/store/model/text-blob.js';
import { describe, expect, it } from 'vitest';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { isStale, pruneStore } from '../../src/store/prune.js';
import { LevelStore } from '../../src/store/level/store.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { RECORD_VERSION, type StoreOperation, type UrlRecord } from '../../src/store/model/types.js';
import { tempDir } from '../helpers/cli.js';
import { versionText } from '../../src/domain/versions/index.js';
import { checkText } from './versions-contract.js';

const NOW = Date.UTC(2024, 11, 2);
const DAY = 86_400_000;
const record = (lastChecked: number, fields: Partial<UrlRecord> = {}): UrlRecord => ({ v: RECORD_VERSION, status: 200, hash: 'h', lastChecked, ...fields });
const put = (key: string, value: UrlRecord): StoreOperation => ({ type: 'put', key, value });
const host = (key: string, override?: 'hash-only'): StoreOperation => ({
	type: 'putHost',
	key,
	value: { ...newHostRecord(NOW), ...(override ? { override } : {}) },
});

/** A MemoryStore that records the operations of each batch. */
class CountingStore extends MemoryStore {
	batches: StoreOperation[][] = [];
	override async batch(operations: readonly StoreOperation[]): Promise<void> {
		this.batches.push([...operations]);
		await super.batch(operations);
	}
}

async function keys(store: MemoryStore | LevelStore) {
	const urls = [];
	for await (const [key] of store.entries()) urls.push(key);
	const hosts = [];
	for await (const [key] of store.hostEntries()) hosts.push(key);
	return { urls, hosts };
}

describe('pruneStore', () => {
	it('is stale when last checked before the cutoff and no later check is scheduled', () => {
		expect(isStale(record(NOW - 31 * DAY), NOW - 30 * DAY, NOW)).toBe(true);
		expect(isStale(record(NOW - 30 * DAY), NOW - 30 * DAY, NOW)).toBe(false);
		expect(isStale(record(NOW - 31 * DAY, { nextDue: NOW + DAY }), NOW - 30 * DAY, NOW)).toBe(false);
		expect(isStale(record(NOW - 31 * DAY, { nextDue: NOW - DAY }), NOW - 30 * DAY, NOW)).toBe(true);
	});

	it('deletes old URL records and hosts no kept record refers to, keeping hand-set modes and redirect targets', async () => {
		const store = new MemoryStore();
		await store.batch([
			put('https://a.example/old', record(NOW - 40 * DAY)),
			put('https://a.example/new', record(NOW - DAY)),
			put('https://a.example/scheduled', record(NOW - 40 * DAY, { nextDue: NOW + DAY })),
			put('https://b.example/old', record(NOW - 40 * DAY)),
			put('http://c.example/moved', record(NOW - DAY, { finalUrl: 'https://www.c.example/moved', permanent: true })),
			put('https://user@e.example/x', record(NOW - DAY)),
			host('https://a.example'),
			host('https://b.example'),
			host('http://c.example'),
			host('https://www.c.example'),
			host('https://d.example'),
			host('https://manual.example', 'hash-only'),
			host('https://e.example'),
		]);
		const result = await pruneStore(store, { before: NOW - 30 * DAY, now: NOW });
		expect(result).toEqual({ urls: 2, keptUrls: 4, hosts: 2, keptHosts: 5, keptOverrides: 1, texts: 0, textBytes: 0, versions: 0 });
		expect(await keys(store)).toEqual({
			urls: ['http://c.example/moved', 'https://a.example/new', 'https://a.example/scheduled', 'https://user@e.example/x'],
			hosts: ['http://c.example', 'https://a.example', 'https://e.example', 'https://manual.example', 'https://www.c.example'],
		});
	});

	it("drops the kept text of the records pruned, keeps a text a kept record shares, and lowers the last run row's total", async () => {
		const store = new MemoryStore();
		const text = (value: string): StoreOperation => ({ type: 'putText', key: textKey(value), value: packText(value, 1) });
		const row = {
			v: 1,
			startedAt: 5,
			endedAt: 6,
			urls: 3,
			changed: 3,
			notModified: 0,
			sameHash: 0,
			errors: 0,
			bytes: 0,
			fullBytes: 0,
			notDue: 0,
			blockedHosts: [],
			hosts: {},
			textBytes: 99_999,
		};
		await store.batch([
			put('https://a.example/old', record(NOW - 40 * DAY, { text: { hash: textKey('old text') } })),
			put('https://a.example/old-shared', record(NOW - 40 * DAY, { text: { hash: textKey('shared text') } })),
			put('https://a.example/new', record(NOW - DAY, { text: { hash: textKey('shared text') } })),
			text('old text'),
			text('shared text'),
			{ type: 'putRun', key: runKey(5), value: row },
		]);
		const result = await pruneStore(store, { before: NOW - 30 * DAY, now: NOW });
		const left = blobSize(packText('shared text', 1));
		expect(result).toMatchObject({ urls: 2, texts: 1, textBytes: left });
		expect(await store.getTexts([textKey('old text'), textKey('shared text')])).toEqual([undefined, expect.anything()]);
		for await (const [, run] of store.runEntries()) expect(run.textBytes).toBe(left);
	});

	it('deletes the versions of the URLs pruned, and the text only their logs pointed to', async () => {
		const store = new MemoryStore();
		await checkText(store, 'https://a.example/old', 'first text', NOW - 50 * DAY);
		await checkText(store, 'https://a.example/old', 'second text', NOW - 40 * DAY);
		await checkText(store, 'https://a.example/kept', 'kept text', NOW - 40 * DAY);
		await checkText(store, 'https://a.example/kept', 'kept text, changed', NOW);
		const result = await pruneStore(store, { before: NOW - 30 * DAY, now: NOW });
		expect(result).toMatchObject({ urls: 1, versions: 1 });
		const logs: string[] = [];
		for await (const [key] of store.versionEntries()) logs.push(key);
		expect(logs).toEqual(['https://a.example/kept']);
		expect(await store.getTexts([textKey('second text'), textKey('kept text, changed')]).then((blobs) => blobs.map((blob) => blob !== undefined))).toEqual([
			false,
			true,
		]);
		expect(await versionText(store, 'https://a.example/kept', 1)).toBe('kept text');
	});

	it('writes deletes in batches of batchSize while iterating, and nothing on a dry run', async () => {
		const fill = async (store: MemoryStore) => {
			const ops: StoreOperation[] = [];
			for (let i = 0; i < 3000; i++) ops.push(put(`https://h${i % 3}.example/${String(i).padStart(5, '0')}`, record(i < 2500 ? NOW - 40 * DAY : NOW)));
			ops.push(host('https://h0.example'), host('https://gone1.example'), host('https://gone2.example'));
			await store.batch(ops);
		};
		const dry = new CountingStore();
		await fill(dry);
		dry.batches = [];
		expect(await pruneStore(dry, { before: NOW - 30 * DAY, now: NOW, dryRun: true, batchSize: 1000 })).toMatchObject({
			urls: 2500,
			keptUrls: 500,
			hosts: 2,
			keptHosts: 1,
		});
		expect(dry.batches).toEqual([]);
		expect((await keys(dry)).urls).toHaveLength(3000);

		const wet = new CountingStore();
		await fill(wet);
		wet.batches = [];
		expect(await pruneStore(wet, { before: NOW - 30 * DAY, now: NOW, batchSize: 1000 })).toMatchObject({ urls: 2500, hosts: 2 });
		expect(wet.batches.map((batch) => batch.length)).toEqual([1000, 1000, 500, 2]);
		expect(wet.batches.flat().every((op) => op.type === 'del' || op.type === 'delHost')).toBe(true);
		expect((await keys(wet)).urls).toHaveLength(500);
		await expect(pruneStore(wet, { before: NOW, now: NOW, batchSize: 0 })).rejects.toThrow(/batchSize/);
	});

	it('deletes safely while a LevelDB iterator is open over the same keys', async () => {
		const { dir, cleanup } = await tempDir();
		const store = await LevelStore.open(dir);
		try {
			const ops: StoreOperation[] = [];
			for (let i = 0; i < 5000; i++) ops.push(put(`https://x.example/${String(i).padStart(5, '0')}`, record(i % 2 === 0 ? NOW - 40 * DAY : NOW)));
			await store.batch(ops);
			expect(await pruneStore(store, { before: NOW - 30 * DAY, now: NOW, batchSize: 7 })).toMatchObject({ urls: 2500, keptUrls: 2500 });
			const left = (await keys(store)).urls;
			expect(left).toHaveLength(2500);
			expect(left.every((key) => Number(key.slice(-5)) % 2 === 1)).toBe(true);
			expect(await pruneStore(store, { before: NOW - 30 * DAY, now: NOW, batchSize: 7 })).toMatchObject({ urls: 0, keptUrls: 2500 });
		} finally {
			await store.close();
			await cleanup();
		}
	});
});
