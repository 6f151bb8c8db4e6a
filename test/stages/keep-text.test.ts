import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createTextBudget, keepText } from '../../src/stages/keep-text.js';
import { MemoryStore } from '../../src/store/memory.js';
import { runKey } from '../../src/store/run-key.js';
import { RECORD_VERSION, type RunRecord, type UrlRecord } from '../../src/store/types.js';
import type { Task, Verdict } from '../../src/types.js';

const record = (over: Partial<UrlRecord> = {}): UrlRecord => ({ v: RECORD_VERSION, status: 200, hash: 'aa', lastChecked: 1, ...over });
const task = (reason: Verdict['reason'], over: Partial<Task> = {}, counted?: string): Task => ({
	line: 1,
	input: 'https://a/',
	url: 'https://a/',
	verdict: { url: 'https://a/', changed: !['304', 'same-hash', 'same-content', 'error'].includes(reason), reason },
	next: record({ hash: 'bb' }),
	probe: { status: 200, finalUrl: 'https://a/', permanent: false, bytes: 10, ms: 1, ...(counted === undefined ? {} : { counted: { text: counted, cut: false } }) },
	...over,
});
const run = async (tasks: Task[], options = { keep: true, totalBytes: 1000 }, store = new MemoryStore()) => {
	const budget = createTextBudget(store);
	const out = await lastValueFrom(from(tasks).pipe(keepText(budget, options), toArray()));
	return { out, budget };
};

/** A store whose last run row says it holds `textBytes` of text (an earlier row says otherwise). */
async function storeHolding(textBytes: number): Promise<MemoryStore> {
	const store = new MemoryStore();
	const row = (startedAt: number, bytes: number): RunRecord => ({ v: 1, startedAt, endedAt: startedAt + 1, urls: 1, changed: 1, notModified: 0, sameHash: 0, errors: 0, bytes: 0, fullBytes: 0, notDue: 0, blockedHosts: [], hosts: {}, textBytes: bytes });
	await store.batch([{ type: 'putRun', key: runKey(5), value: row(5, 1) }, { type: 'putRun', key: runKey(9), value: row(9, textBytes) }]);
	return store;
}

describe('keepText', () => {
	it('diffs a change against the text kept at its last change, and keeps the new text', async () => {
		const { out, budget } = await run([task('new-body', { record: record({ text: { text: 'the old words' } }) }, 'the new words, longer')], undefined, await storeHolding(13));
		expect(out[0]!.wordDiff).toEqual({ hunks: [[[0, 'the '], [-1, 'old'], [1, 'new'], [0, ' words'], [1, ', longer']]], why: 'diff' });
		expect(out[0]!.next!.text).toEqual({ text: 'the new words, longer' });
		expect(budget.bytes).toBe('the new words, longer'.length);
	});

	it('keeps the text at first sight, so that the first change has a diff; a record from before that has none', async () => {
		const { out } = await run([task('new', { record: null }, 'first'), task('new-body', { record: record() }, 'changed')]);
		expect(out[0]!.wordDiff).toEqual({ why: 'first-sight' });
		expect(out[0]!.next!.text).toEqual({ text: 'first' });
		expect(out[1]!.wordDiff).toEqual({ why: 'no-earlier-text' });
		expect(out[1]!.next!.text).toEqual({ text: 'changed' });
	});

	it('says how far cut texts go, and never calls a change past the cut a whitespace change', async () => {
		const cut = (text: string): Task['probe'] => ({ status: 200, finalUrl: 'https://a/', permanent: false, bytes: 10, ms: 1, counted: { text, cut: true } });
		const { out } = await run([
			task('new-body', { record: record({ text: { text: 'one two three', cut: true } }), probe: cut('one two three ') }),
			task('new-body', { record: record({ text: { text: 'one two', cut: true } }), probe: cut('one two four') }),
		]);
		expect(out[0]!.wordDiff).toEqual({ why: 'beyond-cut', kept: 13 });
		expect(out[1]!.wordDiff).toMatchObject({ why: 'diff', kept: 7 });
		expect(out[1]!.wordDiff!.hunks!.flat().filter(([op]) => op === 1)).toEqual([[1, ' four']]);
	});

	it("carries an unchanged page's text on, and drops a gone page's", async () => {
		const kept = { text: 'kept' };
		const { out, budget } = await run([
			task('same-hash', { record: record({ text: kept }) }),
			task('gone', { record: record({ text: kept }), next: { v: RECORD_VERSION, status: 404, lastChecked: 2 } }),
		]);
		expect(out[0]!.next!.text).toEqual(kept);
		expect(out[1]!.next!.text).toBeUndefined();
		expect(out[1]!.wordDiff).toEqual({ why: 'gone' });
		expect(budget.bytes).toBe(-4);
	});

	it('keeps no more than the total, counting from the last run row', async () => {
		const { out, budget } = await run([task('new-body', { record: record() }, 'too long for the room left')], { keep: true, totalBytes: 1000 }, await storeHolding(995));
		expect(out[0]!.next!.text).toBeUndefined();
		expect(out[0]!.wordDiff).toEqual({ why: 'total-cap' });
		expect(budget.bytes).toBe(995);
	});

	it('keeps nothing when off, freeing what a page held', async () => {
		const { out, budget } = await run([task('new-body', { record: record({ text: { text: 'old' } }) }, 'new')], { keep: false, totalBytes: 1000 });
		expect(out[0]!.wordDiff!.why).toBe('diff');
		expect(out[0]!.next!.text).toBeUndefined();
		expect(budget.bytes).toBe(-3);
	});
});
