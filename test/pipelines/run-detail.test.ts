import { describe, expect, it } from 'vitest';
import { addToDetail, createRunDetail, DETAIL_CAPS, detailOperations } from '../../src/pipelines/run-detail.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { runKey } from '../../src/store/model/run-key.js';
import { RECORD_VERSION, type RunRecord } from '../../src/store/model/types.js';
import type { Task } from '../../src/domain/task/types.js';

const changed = (url: string, over: Partial<Task> = {}): Task => ({
	line: 1,
	input: url,
	url,
	origin: 'https://a',
	verdict: { url, changed: true, reason: 'new-body', status: 200, etag: '"2"', hash: 'bb', bytes: 40 },
	record: { v: RECORD_VERSION, status: 200, etag: '"1"', hash: 'aa', lastChecked: 1, noise: ['\\d+'], content: { hash: 'c1', rules: 'news' } },
	next: { v: RECORD_VERSION, status: 200, etag: '"2"', hash: 'bb', lastChecked: 2, content: { hash: 'c2', rules: 'news' } },
	wordDiff: {
		hunks: [
			[
				[-1, 'old'],
				[1, 'new'],
			],
		],
		why: 'diff',
	},
	...over,
});
const failed = (url: string, code: string): Task => ({
	line: 1,
	input: url,
	url,
	verdict: { url, changed: false, reason: 'error', error: { code, message: `${code} happened` } },
});

describe('run detail', () => {
	it('keeps why a URL changed: validators and hashes before and after, rule, noise, audit, diff', () => {
		const detail = createRunDetail(7);
		addToDetail(detail, changed('https://a/1'));
		addToDetail(detail, changed('https://a/2', { verdict: { url: 'https://a/2', changed: true, reason: 'audit' } }));
		addToDetail(detail, { ...changed('https://a/3'), verdict: { url: 'https://a/3', changed: false, reason: '304' } });
		expect(detail.changes).toHaveLength(2);
		expect(detail.changes[0]).toEqual({
			url: 'https://a/1',
			origin: 'https://a',
			reason: 'new-body',
			changed: true,
			bytes: 40,
			before: { status: 200, etag: '"1"', hash: 'aa', content: 'c1' },
			after: { status: 200, etag: '"2"', hash: 'bb', content: 'c2' },
			rule: 'news',
			noise: 1,
			text: 'diff',
			diff: [
				[
					[-1, 'old'],
					[1, 'new'],
				],
			],
		});
		expect(detail.changes[1]!.audit).toBe(true);
	});

	it("keeps a product page's offer before and after, for the report's row", () => {
		const detail = createRunDetail(7);
		const url = 'https://a/kettle';
		addToDetail(
			detail,
			changed(url, {
				verdict: { url, changed: true, reason: 'price', product: { price: 21, currency: 'EUR', prices: 2 }, previous: { price: 24.5, currency: 'EUR' } },
			}),
		);
		addToDetail(detail, changed(`${url}/new`, { verdict: { url: `${url}/new`, changed: true, reason: 'new', product: { price: 9 } } }));
		expect(detail.changes.map((change) => change.product)).toEqual([
			{ before: { price: 24.5, currency: 'EUR' }, after: { price: 21, currency: 'EUR' }, said: 'price 24.5 EUR → 21 EUR' },
			{ after: { price: 9 } },
		]);
	});

	it('counts every error by code and keeps some of their URLs', () => {
		const detail = createRunDetail(7);
		for (let i = 0; i < DETAIL_CAPS.errorsPerCode + 5; i++) addToDetail(detail, failed(`https://a/${i}`, 'ETIMEDOUT'));
		addToDetail(detail, failed('https://b/', 'HTTP_500'));
		expect(detail.errorCounts).toEqual({ ETIMEDOUT: DETAIL_CAPS.errorsPerCode + 5, HTTP_500: 1 });
		expect(detail.errors).toHaveLength(DETAIL_CAPS.errorsPerCode + 1);
		expect(detail.dropped.errors).toBe(5);
	});

	it('stores the detail under the run key and drops the details of runs past the last 50', async () => {
		const store = new MemoryStore();
		const row = (startedAt: number): RunRecord => ({
			v: 1,
			startedAt,
			endedAt: startedAt,
			urls: 0,
			changed: 0,
			notModified: 0,
			sameHash: 0,
			errors: 0,
			bytes: 0,
			fullBytes: 0,
			notDue: 0,
			blockedHosts: [],
			hosts: {},
		});
		await store.batch(Array.from({ length: DETAIL_CAPS.runs }, (_, i) => ({ type: 'putRun' as const, key: runKey(i + 1), value: row(i + 1) })));
		const empty = createRunDetail(100);
		expect(await detailOperations(store, empty)).toEqual([]);
		const detail = createRunDetail(100);
		addToDetail(detail, changed('https://a/1'));
		const operations = await detailOperations(store, detail);
		expect(operations[0]).toMatchObject({ type: 'putRunDetail', key: runKey(100) });
		expect(operations.slice(1)).toEqual([{ type: 'delRunDetail', key: runKey(1) }]);
		expect(JSON.stringify(operations[0])).not.toContain('diffChars');
	});
});
