import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runKey } from '../../src/store/model/run-key.js';
import {
	RECORD_VERSION,
	type Delivery,
	type HostRecord,
	type RunDetail,
	type RunRecord,
	type StoreReader,
	type StoreWriter,
	type UrlRecord,
} from '../../src/store/model/types.js';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { packText, textKey, unpackText } from '../../src/store/model/text-blob.js';
import { readWrite, versionCases } from './versions-contract.js';

const record = (over: Partial<UrlRecord> = {}): UrlRecord => ({
	v: RECORD_VERSION,
	status: 200,
	etag: 'W/"a b"',
	lastModified: 'Mon, 14 Jul 2025 09:02:11 GMT',
	hash: 'ab'.repeat(16),
	lastChecked: 1,
	...over,
});

/** A reader under test, and how to write what it is to read: the store itself, or (for a store read through a watch) the store the watch holds. */
export interface ReaderUnderTest {
	reader: StoreReader;
	write: StoreWriter['batch'];
	/** After `reader.close()`: whatever else the test opened. */
	cleanup(): Promise<void>;
}

/**
 * The contract every StoreReader runs (as abstract-level's suite does for its
 * implementations): what a read gives back of what was written, in order, byte for byte.
 * Call it from a test file with a factory; test/store/supports.ts says which backends do.
 */
export function readerContract(name: string, open: () => Promise<ReaderUnderTest>): void {
	describe(`${name} (StoreReader contract)`, () => {
		let reader: StoreReader;
		let write: StoreWriter['batch'];
		let cleanup: () => Promise<void>;
		beforeEach(async () => {
			({ reader, write, cleanup } = await open());
		});
		afterEach(async () => {
			await reader.close();
			await cleanup();
		});

		it('returns undefined for keys never stored, in order', async () => {
			await write([{ type: 'put', key: 'https://b/', value: record() }]);
			const got = await reader.getMany(['https://a/', 'https://b/', 'https://c/']);
			expect(got).toEqual([undefined, record(), undefined]);
		});

		it('keeps validators exactly as given', async () => {
			const odd = record({ etag: '"\u00e9t\u00e9"', lastModified: 'Mon,  14 Jul 2025 09:02:11 GMT' });
			await write([{ type: 'put', key: 'k', value: odd }]);
			expect((await reader.getMany(['k']))[0]).toEqual(odd);
		});

		it("keeps a URL's change history and rate, and a host's lastmod trust (docs/12-scheduling.md)", async () => {
			const scheduled = record({ checks: [1440, -2880, 60], rate: 0.3125, freshUntil: 86_400_000 });
			const host: HostRecord = {
				...newHostRecord(5),
				lastmod: { right: 5, wrong: 1, streak: 0, trusted: false, reason: 'lastmod said unchanged and a check found a change', skipped: 12, sampled: 2 },
				maxAge: { right: 5, wrong: 0, streak: 5, trusted: true, reason: 'x', skipped: 1, sampled: 0 },
			};
			await write([
				{ type: 'put', key: 'k', value: scheduled },
				{ type: 'putHost', key: 'https://h', value: host },
			]);
			expect((await reader.getMany(['k']))[0]).toEqual(scheduled);
			expect((await reader.getHosts(['https://h']))[0]).toEqual(host);
		});

		it('lists every record in key order', async () => {
			await write(['c', 'a', 'b'].map((key) => ({ type: 'put' as const, key, value: record() })));
			const keys: string[] = [];
			for await (const [key] of reader.entries()) keys.push(key);
			expect(keys).toEqual(['a', 'b', 'c']);
		});

		it('keeps host records apart from URL records, written in the same atomic batch', async () => {
			const host: HostRecord = { ...newHostRecord(5), conditional: 3 };
			await write([
				{ type: 'put', key: 'https://a/', value: record() },
				{ type: 'putHost', key: 'https://a', value: host },
			]);
			expect(await reader.getHosts(['https://a', 'https://b'])).toEqual([host, undefined]);
			expect(await reader.getMany(['https://a'])).toEqual([undefined]);
			const origins: string[] = [];
			for await (const [origin] of reader.hostEntries()) origins.push(origin);
			expect(origins).toEqual(['https://a']);
			await write([{ type: 'delHost', key: 'https://a' }]);
			expect(await reader.getHosts(['https://a'])).toEqual([undefined]);
		});

		it("keeps learned noise: a page's places and its host's, at their bounds", async () => {
			const learned = Array.from({ length: 40 }, (_, i) => ({ at: `html:html>body>div.n${'x'.repeat(i % 5)}>p@data-${i}`, since: 1_700_000_000_000 + i }));
			const page = record({ learned, content: { hash: 'cd'.repeat(16), rules: '-', noiseAt: 1_700_000_000_039 } });
			const noise = Array.from({ length: 100 }, (_, i) => ({
				template: '/product/*',
				at: `json:/a/${i}~1b`,
				pages: ['0a1b2c3d', '4e5f6a7b', '8c9d0e1f'],
				since: i,
				...(i % 2 === 0 && { applies: i + 1 }),
			}));
			const host: HostRecord = { ...newHostRecord(5), noise };
			await write([
				{ type: 'put', key: 'https://a/p', value: page },
				{ type: 'putHost', key: 'https://a', value: host },
			]);
			expect(await reader.getMany(['https://a/p'])).toEqual([page]);
			expect(await reader.getHosts(['https://a'])).toEqual([host]);
		});

		it('keeps run rows in start-time order', async () => {
			const row = (startedAt: number): RunRecord => ({
				v: 1,
				startedAt,
				endedAt: startedAt + 1,
				urls: 1,
				changed: 0,
				notModified: 1,
				sameHash: 0,
				errors: 0,
				bytes: 0,
				fullBytes: 10,
				notDue: 0,
				blockedHosts: [],
				hosts: {},
			});
			await write([900, 10_000, 50].map((t) => ({ type: 'putRun' as const, key: runKey(t), value: row(t) })));
			const starts: number[] = [];
			for await (const [, value] of reader.runEntries()) starts.push(value.startedAt);
			expect(starts).toEqual([50, 900, 10_000]);
		});

		it('keeps run details apart from run rows, read by run key and deleted by it', async () => {
			const detail = (startedAt: number): RunDetail => ({
				v: 1,
				startedAt,
				changes: [
					{
						url: 'https://a/',
						reason: 'new-body',
						changed: true,
						before: { hash: 'aa' },
						after: { hash: 'bb' },
						diff: [
							[
								[0, 'a'],
								[0, ' '],
								[-1, 'old'],
								[1, 'new'],
							],
						],
					},
				],
				errors: [{ url: 'https://b/', reason: 'error', changed: false, error: { code: 'HTTP_500', message: 'server answered 500' } }],
				errorCounts: { HTTP_500: 1 },
				dropped: { changes: 0, errors: 0 },
			});
			await write([
				{ type: 'putRunDetail', key: runKey(5), value: detail(5) },
				{ type: 'putRunDetail', key: runKey(7), value: detail(7) },
			]);
			expect(await reader.getRunDetails([runKey(7), runKey(6), runKey(5)])).toEqual([detail(7), undefined, detail(5)]);
			const rows: string[] = [];
			for await (const [key] of reader.runEntries()) rows.push(key);
			expect(rows).toEqual([]);
			await write([{ type: 'delRunDetail', key: runKey(5) }]);
			expect(await reader.getRunDetails([runKey(5), runKey(7)])).toEqual([undefined, detail(7)]);
		});

		it('keeps text blobs by their hash, byte for byte, lists them in key order, and deletes them', async () => {
			const texts = ['Council news\nThe council agreed the budget.', 'h\u00e9 \u{1F600} '.repeat(300), ''];
			const keys = texts.map(textKey);
			await write(texts.map((text, i) => ({ type: 'putText' as const, key: keys[i]!, value: packText(text, 100 + i) })));
			const got = await reader.getTexts([keys[1]!, 'f'.repeat(32), keys[0]!]);
			expect(got[1]).toBeUndefined();
			expect(unpackText(got[0]!)).toBe(texts[1]);
			expect(got[0]!.z.equals(packText(texts[1]!, 0).z)).toBe(true);
			expect(got[2]).toMatchObject({ v: RECORD_VERSION, at: 100, bytes: Buffer.byteLength(texts[0]!) });
			const listed: string[] = [];
			for await (const [key, blob] of reader.textEntries()) {
				listed.push(key);
				expect(unpackText(blob)).toBe(texts[keys.indexOf(key)]);
			}
			expect(listed).toEqual([...keys].sort());
			await write([
				{ type: 'delText', key: keys[0]! },
				{ type: 'put', key: 'u', value: record({ text: { hash: keys[1]!, cut: true } }) },
			]);
			expect((await reader.getTexts([keys[0]!]))[0]).toBeUndefined();
			expect((await reader.getMany(['u']))[0]!.text).toEqual({ hash: keys[1], cut: true });
		});

		versionCases(() => readWrite(reader, write));

		it("keeps pending deliveries with the change they tell of, lists a target's in commit order, and deletes them", async () => {
			const delivery = (target: string, at: number): Delivery => ({
				v: RECORD_VERSION,
				target,
				shown: `notify json://127.0.0.1/${target}`,
				at,
				payload: { title: 'changed', body: `at ${at}`, fields: { n: at } },
			});
			// `a` and `a0`/`a.b`: ids that share a prefix must not show in each other's list.
			const keys = ['a/0000000000002-000001', 'a/0000000000001-000000', 'a0/0000000000001-000000', 'a.b/0000000000001-000000', 'b/0000000000003-000000'];
			await write([
				{ type: 'put', key: 'https://a/', value: record() },
				...keys.map((key) => ({ type: 'putDelivery' as const, key, value: delivery(key.split('/')[0]!, Number(key.split('/')[1]!.slice(0, 13))) })),
			]);
			const list = async (target?: string) => {
				const listed: Array<[string, Delivery]> = [];
				for await (const entry of reader.deliveryEntries(target)) listed.push(entry);
				return listed;
			};
			expect((await list()).map(([key]) => key)).toEqual([...keys].sort());
			expect(await list('a')).toEqual([
				['a/0000000000001-000000', delivery('a', 1)],
				['a/0000000000002-000001', delivery('a', 2)],
			]);
			expect((await list('a0')).map(([key]) => key)).toEqual(['a0/0000000000001-000000']);
			expect(await list('c')).toEqual([]);
			await write([{ type: 'delDelivery', key: 'a/0000000000001-000000' }]);
			expect((await list('a')).map(([key]) => key)).toEqual(['a/0000000000002-000001']);
			expect((await reader.getMany(['https://a/']))[0]).toEqual(record());
		});

		it('hands out copies, so a caller cannot change stored state by mutation', async () => {
			await write([{ type: 'put', key: 'a', value: record() }]);
			const [first] = await reader.getMany(['a']);
			first!.etag = 'changed';
			expect((await reader.getMany(['a']))[0]!.etag).toBe('W/"a b"');
		});
	});
}
