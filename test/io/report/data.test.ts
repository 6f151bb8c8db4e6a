import { describe, expect, it } from 'vitest';
import { newHostRecord } from '../../../src/net/hosts/record.js';
import { coveredRuns, loadReport } from '../../../src/io/report/data.js';
import { MemoryStore } from '../../../src/store/level/memory.js';
import { runKey } from '../../../src/store/model/run-key.js';
import type { RunDetail, RunRecord } from '../../../src/store/model/types.js';

const row = (startedAt: number, over: Partial<RunRecord> = {}): RunRecord => ({
	v: 1,
	startedAt,
	endedAt: startedAt + 1000,
	urls: 10,
	changed: 2,
	notModified: 7,
	sameHash: 0,
	errors: 1,
	bytes: 100,
	fullBytes: 1000,
	notDue: 0,
	blockedHosts: [],
	hosts: { 'https://a': { urls: 6, changed: 1, conditional: 6, notModified: 5 }, 'https://b': { urls: 4, changed: 1, conditional: 2, notModified: 2 } },
	...over,
});
const detail = (startedAt: number): RunDetail => ({
	v: 1,
	startedAt,
	changes: [{ url: `https://a/${startedAt}`, reason: 'new-body', changed: true }],
	errors: [{ url: 'https://b/x', reason: 'error', changed: false, error: { code: 'HTTP_500', message: 'server answered 500' } }],
	errorCounts: { HTTP_500: 1 },
	dropped: { changes: 0, errors: 0 },
});

describe('loadReport', () => {
	it('covers the last run, the last N, or those since a time', () => {
		const runs = [row(1), row(2), row(3)];
		expect(coveredRuns(runs, {}).map((run) => run.startedAt)).toEqual([3]);
		expect(coveredRuns(runs, { runs: 2 }).map((run) => run.startedAt)).toEqual([2, 3]);
		expect(coveredRuns(runs, { since: 2 }).map((run) => run.startedAt)).toEqual([2, 3]);
	});

	it('sums the covered runs, lists their changes newest first, counts errors by code and joins the hosts with their stats', async () => {
		const store = new MemoryStore();
		await store.batch([
			{ type: 'putRun', key: runKey(1000), value: row(1000) },
			{ type: 'putRun', key: runKey(2000), value: row(2000) },
			{ type: 'putRun', key: runKey(3000), value: row(3000) },
			{ type: 'putRunDetail', key: runKey(2000), value: detail(2000) },
			{ type: 'putRunDetail', key: runKey(3000), value: detail(3000) },
			{ type: 'putHost', key: 'https://a', value: { ...newHostRecord(1), conditional: 12, notModified: 10 } },
			{ type: 'putHost', key: 'https://b', value: newHostRecord(1) },
		]);
		const data = await loadReport(store, { runs: 3 }, 'memory', 5000);
		expect(data.summary).toEqual({
			runs: 3,
			urls: 30,
			changed: 6,
			notModified: 21,
			sameHash: 0,
			sameContent: 0,
			rebaseline: 0,
			errors: 3,
			deferred: 0,
			notDue: 0,
			bytes: 300,
			bytesSaved: 2700,
		});
		expect(data.changes.map((change) => change.url)).toEqual(['https://a/3000', 'https://a/2000']);
		expect(data.changes[0]!.run).toBe(new Date(3000).toISOString());
		expect(data.errorCounts).toEqual({ HTTP_500: 2 });
		expect(data.dropped.runsWithoutDetail).toBe(1);
		expect(data.hosts.map((host) => [host.host, host.checked, host.changed, host.ratio304])).toEqual([
			['https://a', 18, 3, 10 / 12],
			['https://b', 12, 3, null],
		]);
		expect(data.svg).toMatch(/^<svg/);
		expect(data.generatedAt).toBe(new Date(5000).toISOString());
	});
});
