import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createTextShelf, keepText } from '../../src/stages/keep-text.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { runKey } from '../../src/store/model/run-key.js';
import { blobSize, packText, textKey, unpackText } from '../../src/store/model/text-blob.js';
import { RECORD_VERSION, type RunRecord, type UrlRecord } from '../../src/store/model/types.js';
import type { Task, Verdict } from '../../src/domain/task/types.js';

const record = (over: Partial<UrlRecord> = {}): UrlRecord => ({ v: RECORD_VERSION, status: 200, hash: 'aa', lastChecked: 1, ...over });
const task = (reason: Verdict['reason'], over: Partial<Task> = {}, counted?: string, url = 'https://a/'): Task => ({
	line: 1,
	input: url,
	url,
	verdict: { url, changed: !['304', 'same-hash', 'same-content', 'error'].includes(reason), reason },
	next: record({ hash: 'bb' }),
	probe: { status: 200, finalUrl: url, permanent: false, bytes: 10, ms: 1, ...(counted === undefined ? {} : { counted: { text: counted, cut: false } }) },
	...over,
});

/** Runs the stage over `tasks` and commits its blob operations, as a run does. */
const run = async (tasks: Task[], store = new MemoryStore(), keep = true) => {
	const shelf = createTextShelf(store);
	const out = await lastValueFrom(from(tasks).pipe(keepText({ keep, now: () => 1000 }, { store, shelf }), toArray()));
	await store.batch(shelf.drain());
	return { out, shelf, store };
};

/** A store holding `text` as a blob, and a last run row that counted it. */
async function storeWith(text: string): Promise<MemoryStore> {
	const store = new MemoryStore();
	const blob = packText(text, 5);
	const row: RunRecord = {
		v: 1,
		startedAt: 9,
		endedAt: 10,
		urls: 1,
		changed: 1,
		notModified: 0,
		sameHash: 0,
		errors: 0,
		bytes: 0,
		fullBytes: 0,
		notDue: 0,
		blockedHosts: [],
		hosts: {},
		textBytes: blobSize(blob),
	};
	await store.batch([
		{ type: 'putText', key: textKey(text), value: blob },
		{ type: 'putRun', key: runKey(9), value: row },
	]);
	return store;
}

describe('keepText', () => {
	it('diffs a change against the text kept before, and keeps the new text as a compressed blob under its hash', async () => {
		const store = await storeWith('the old words');
		const { out, shelf } = await run([task('new-body', { record: record({ text: { hash: textKey('the old words') } }) }, 'the new words, longer')], store);
		expect(out[0]!.wordDiff).toEqual({
			hunks: [
				[
					[0, 'the '],
					[-1, 'old'],
					[1, 'new'],
					[0, ' words'],
					[1, ', longer'],
				],
			],
			why: 'diff',
		});
		const key = textKey('the new words, longer');
		expect(out[0]!.next!.text).toEqual({ hash: key });
		const [blob] = await store.getTexts([key]);
		expect(unpackText(blob!)).toBe('the new words, longer');
		expect(blob!.at).toBe(1000);
		expect(shelf.bytes).toBe(blobSize(packText('the old words', 0)) + blobSize(blob!));
	});

	it('keeps the text at first sight, so that the first change has a diff; a record from before that has none', async () => {
		const { out } = await run([task('new', { record: null }, 'first'), task('new-body', { record: record() }, 'changed', 'https://b/')]);
		expect(out[0]!.wordDiff).toEqual({ why: 'first-sight' });
		expect(out[0]!.next!.text).toEqual({ hash: textKey('first') });
		expect(out[1]!.wordDiff).toEqual({ why: 'no-earlier-text' });
		expect(out[1]!.next!.text).toEqual({ hash: textKey('changed') });
	});

	it('stores a text shared by many pages once, and counts it once', async () => {
		const pages = Array.from({ length: 20 }, (_, i) => task('new', { record: null }, 'the same footer text on every page', `https://a/${i}`));
		const { out, shelf, store } = await run(pages);
		expect(new Set(out.map((done) => done.next!.text!.hash)).size).toBe(1);
		const blobs = [];
		for await (const entry of store.textEntries()) blobs.push(entry);
		expect(blobs).toHaveLength(1);
		expect(shelf.bytes).toBe(blobSize(blobs[0]![1]));
	});

	it('says a text was evicted when its blob is gone, and diffs a text kept inline by an older revisit', async () => {
		const { out } = await run([
			task('new-body', { record: record({ text: { hash: textKey('gone away') } }) }, 'new text'),
			task('new-body', { record: record({ text: { text: 'inline old' } }) }, 'inline new', 'https://b/'),
		]);
		expect(out[0]!.wordDiff).toEqual({ why: 'evicted' });
		expect(out[0]!.next!.text).toEqual({ hash: textKey('new text') });
		expect(out[1]!.wordDiff).toMatchObject({
			why: 'diff',
			hunks: [
				[
					[0, 'inline '],
					[-1, 'old'],
					[1, 'new'],
				],
			],
		});
	});

	it('says how far cut texts go, and never calls a change past the cut a whitespace change', async () => {
		const cut = (text: string): Task['probe'] => ({ status: 200, finalUrl: 'https://a/', permanent: false, bytes: 10, ms: 1, counted: { text, cut: true } });
		const { out } = await run([
			task('new-body', { record: record({ text: { text: 'one two three', cut: true } }), probe: cut('one two three ') }),
			task('new-body', { record: record({ text: { text: 'one two', cut: true } }), probe: cut('one two four') }, undefined, 'https://b/'),
			task('new-body', { record: record({ text: { text: 'same words' } }) }, 'same words', 'https://c/'),
		]);
		expect(out[0]!.wordDiff).toEqual({ why: 'beyond-cut', kept: 13 });
		expect(out[0]!.next!.text).toEqual({ hash: textKey('one two three '), cut: true });
		expect(out[1]!.wordDiff).toMatchObject({ why: 'diff', kept: 7 });
		expect(out[1]!.wordDiff!.hunks!.flat().filter(([op]) => op === 1)).toEqual([[1, ' four']]);
		expect(out[2]!.wordDiff).toEqual({ why: 'same-text' });
	});

	it("carries an unchanged page's text on, and drops a gone page's", async () => {
		const kept = { hash: textKey('kept') };
		const { out } = await run([
			task('same-hash', { record: record({ text: kept }) }),
			task('gone', { record: record({ text: kept }), next: { v: RECORD_VERSION, status: 404, lastChecked: 2 } }),
		]);
		expect(out[0]!.next!.text).toEqual(kept);
		expect(out[1]!.next!.text).toBeUndefined();
		expect(out[1]!.wordDiff).toEqual({ why: 'gone' });
	});

	it('keeps nothing when off: records lose their text as pages change', async () => {
		const store = await storeWith('old');
		const { out } = await run([task('new-body', { record: record({ text: { hash: textKey('old') } }) }, 'new')], store, false);
		expect(out[0]!.wordDiff!.why).toBe('diff');
		expect(out[0]!.next!.text).toBeUndefined();
		expect(await store.getTexts([textKey('new')])).toEqual([undefined]);
	});
});
