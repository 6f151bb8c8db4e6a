import { expect, it } from 'vitest';
import { collectTexts } from '../../src/store/text-gc.js';
import { packText, textKey, unpackText } from '../../src/store/model/text-blob.js';
import { packVersions, unpackVersions } from '../../src/store/model/version-log.js';
import { RECORD_VERSION, type StoreReader, type StoreWriter, type UrlRecord } from '../../src/store/model/types.js';
import { addVersion, pageVersions, versionText, versionTexts } from '../../src/domain/versions/index.js';

/**
 * What a check that found a new text writes (as stages/keep-text.ts does): the text's
 * blob, the page's log with it as the newest version, and its record, in one batch.
 */
export async function checkText(store: StoreReader & StoreWriter, url: string, text: string, at: number, keep = 50, reason = 'new-body'): Promise<void> {
	const [[record], [log]] = await Promise.all([store.getMany([url]), store.getVersions([url])]);
	const [blob] = record?.text?.hash === undefined ? [undefined] : await store.getTexts([record.text.hash]);
	const key = textKey(text);
	const before = record === undefined ? undefined : { text: blob && unpackText(blob), lastChecked: record.lastChecked };
	const added = addVersion(log, before, { text, key, cut: false, seen: at, reason: record ? reason : 'new', etag: `"${at}"` }, keep);
	const next: UrlRecord = { v: RECORD_VERSION, status: 200, etag: `"${at}"`, lastChecked: at, text: { hash: key } };
	await store.batch([
		{ type: 'putText', key, value: packText(text, at) },
		{ type: 'putVersions', key: url, value: added },
		{ type: 'put', key: url, value: next },
	]);
}

/** An unchanged check: only the record's lastChecked moves (nothing is written for versions). */
export async function confirm(store: StoreReader & StoreWriter, url: string, at: number): Promise<void> {
	const [record] = await store.getMany([url]);
	await store.batch([{ type: 'put', key: url, value: { ...record!, lastChecked: at } }]);
}

/**
 * A reader joined with a writer, for the cases that read and write (checkText): the same
 * store, or one read through a watch and written in the store it holds.
 */
export function readWrite(reader: StoreReader, write: StoreWriter['batch']): StoreReader & StoreWriter {
	return {
		getMany: (keys) => reader.getMany(keys),
		getHosts: (origins) => reader.getHosts(origins),
		getRunDetails: (keys) => reader.getRunDetails(keys),
		getTexts: (keys) => reader.getTexts(keys),
		entries: () => reader.entries(),
		hostEntries: () => reader.hostEntries(),
		runEntries: () => reader.runEntries(),
		textEntries: () => reader.textEntries(),
		getVersions: (keys) => reader.getVersions(keys),
		versionEntries: () => reader.versionEntries(),
		deliveryEntries: (target) => reader.deliveryEntries(target),
		batch: (operations) => write(operations),
		close: () => reader.close(),
	};
}

/** A text of some 600 words, and its editions: each a sentence and a price apart from the one before. */
const BASE = Array.from({ length: 600 }, (_, w) => `w${(w * 7919) % 1009}`).join(' ');
const edited = (i: number): string => `${BASE.slice(0, 1000)} Sentence number ${i} is new. ${BASE.slice(1000)} Price $${(20 + i * 0.5).toFixed(2)}.`;
const page = (i: number, words = 600): string =>
	Array.from({ length: words }, (_, w) => `word${(w * 7 + i) % 97}`).join(' ') + ` Edition ${i}: price $${(20 + i * 0.5).toFixed(2)}.`;

/** The versions cases of the store contract: every backend keeps, bounds and gives back a page's versions alike. */
export function versionCases(store: () => StoreReader & StoreWriter): void {
	it('keeps a version log under its URL byte for byte, lists logs in URL order, and deletes them', async () => {
		const log = packVersions(
			[
				{ n: 2, firstSeen: 20, reason: 'new-body', added: 1, removed: 1, bytes: 5 },
				{ n: 1, firstSeen: 10, lastConfirmed: 15, reason: 'new', added: 0, removed: 0, bytes: 5, delta: [[0, 4], 'é😀'] },
			],
			'f'.repeat(32),
		);
		await store().batch([
			{ type: 'putVersions', key: 'https://b/', value: log },
			{ type: 'putVersions', key: 'https://a/', value: log },
		]);
		const [got, none] = await store().getVersions(['https://b/', 'https://c/']);
		expect(none).toBeUndefined();
		expect(got!.z.equals(log.z)).toBe(true);
		expect({ ...got, z: undefined }).toEqual({ ...log, z: undefined });
		expect(unpackVersions(got!)[1]!.delta).toEqual([[0, 4], 'é😀']);
		const listed: string[] = [];
		for await (const [key] of store().versionEntries()) listed.push(key);
		expect(listed).toEqual(['https://a/', 'https://b/']);
		await store().batch([{ type: 'delVersions', key: 'https://a/' }]);
		expect(await store().getVersions(['https://a/'])).toEqual([undefined]);
	});

	it('keeps every version of a page, newest first, and gives each text back exactly', async () => {
		const url = 'https://shop.example/item';
		const priced = page(0).replace('price $20.00', 'price $21.50');
		const texts = [page(0), priced, priced.replace('word3 ', 'a whole new sentence here. '), 'héllo 😀 wörld'];
		for (const [i, text] of texts.entries()) {
			await checkText(store(), url, text, 1000 * (i + 1));
			await confirm(store(), url, 1000 * (i + 1) + 500);
		}
		const versions = await pageVersions(store(), url);
		expect(versions.map((version) => [version.n, version.firstSeen, version.lastConfirmed, version.reason])).toEqual([
			[4, 4000, 4500, 'new-body'],
			[3, 3000, 3500, 'new-body'],
			[2, 2000, 2500, 'new-body'],
			[1, 1000, 1500, 'new'],
		]);
		expect(versions[0]).toMatchObject({ etag: '"4000"', bytes: Buffer.byteLength(texts[3]!) });
		expect(versions[1]).toMatchObject({ added: 5, removed: 1 });
		expect(versions[2]).toMatchObject({ added: 1, removed: 1 });
		for (const [i, text] of texts.entries()) expect(await versionText(store(), url, i + 1)).toBe(text);
		expect(await versionText(store(), url, 5)).toBeUndefined();
		// All of them in one pass, the same texts; a number not kept is absent.
		expect([...(await versionTexts(store(), url, [4, 1, 5, 2])).entries()].sort()).toEqual([
			[1, texts[0]],
			[2, texts[1]],
			[4, texts[3]],
		]);
		expect(await pageVersions(store(), 'https://shop.example/never')).toEqual([]);
	});

	it('gives a change that finds the newest text again (its bytes moved) a version of its own, and keeps a text seen twice once', async () => {
		const url = 'https://a.example/';
		await checkText(store(), url, page(0), 1);
		await checkText(store(), url, page(1), 2);
		await checkText(store(), url, page(1), 3);
		const [again] = await store().getVersions([url]);
		// The change is a version; its text is stored once, with the newest.
		expect(unpackVersions(again!).map((version) => [version.n, version.same, version.delta === undefined])).toEqual([
			[3, undefined, true],
			[2, 3, true],
			[1, undefined, false],
		]);
		expect(unpackVersions(again!)[0]).toMatchObject({ added: 0, removed: 0 });
		await checkText(store(), url, page(0), 4);
		const [reverted] = await store().getVersions([url]);
		expect(unpackVersions(reverted!).map((version) => [version.n, version.same, version.delta === undefined])).toEqual([
			[4, undefined, true],
			[3, undefined, false],
			[2, 3, true],
			[1, 4, true],
		]);
		expect(await versionText(store(), url, 1)).toBe(page(0));
		expect(await versionText(store(), url, 2)).toBe(page(1));
		expect(await versionText(store(), url, 3)).toBe(page(1));
	});

	it('keeps at most --keep-versions of a page: the oldest go, never the newest, and the numbers stay', async () => {
		const url = 'https://a.example/bounded';
		for (let i = 0; i < 8; i++) await checkText(store(), url, page(i), 100 + i, 5);
		expect((await pageVersions(store(), url)).map((version) => version.n)).toEqual([8, 7, 6, 5, 4]);
		for (let n = 4; n <= 8; n++) expect(await versionText(store(), url, n)).toBe(page(n - 1));
		expect(await versionText(store(), url, 3)).toBeUndefined();
		await checkText(store(), url, page(8), 200, 1);
		expect((await pageVersions(store(), url)).map((version) => version.n)).toEqual([9]);
		expect(await versionText(store(), url, 9)).toBe(page(8));
	});

	it('past --keep-text-total, drops the oldest versions in the store first, and never a newest', async () => {
		// Two pages changing in turn: a's first version is the oldest in the store, then b's, then a's second…
		for (let i = 0; i < 6; i++) {
			await checkText(store(), 'https://a.example/', edited(i), 1000 + 2 * i);
			await checkText(store(), 'https://b.example/', edited(i + 50), 1001 + 2 * i);
		}
		const sizes = await collectTexts(store(), { maxBytes: Infinity });
		expect(sizes.versions).toBe(0);
		// Just over: the oldest version in the store goes, and nothing else.
		const collected = await collectTexts(store(), { maxBytes: sizes.bytes - 1, targetBytes: sizes.bytes - 1 });
		expect(collected).toMatchObject({ versions: 1, evicted: 0 });
		expect((await pageVersions(store(), 'https://a.example/')).map((version) => version.n)).toEqual([6, 5, 4, 3, 2]);
		expect((await pageVersions(store(), 'https://b.example/')).map((version) => version.n)).toEqual([6, 5, 4, 3, 2, 1]);
		for (let n = 2; n <= 6; n++) expect(await versionText(store(), 'https://a.example/', n)).toBe(edited(n - 1));
		// Far over: every older version goes before a newest text does, and a log goes with the text it is made from.
		const tight = await collectTexts(store(), { maxBytes: 1, targetBytes: 1 });
		expect(tight).toMatchObject({ versions: 9, evicted: 2, bytes: 0 });
		expect(await pageVersions(store(), 'https://b.example/')).toEqual([]);
	});
}
