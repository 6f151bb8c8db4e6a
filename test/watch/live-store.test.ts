import { describe, expect, it } from 'vitest';
import type { LiveRun } from '../../src/pipelines/live-run.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { runKey } from '../../src/store/model/run-key.js';
import { RECORD_VERSION, type RunDetail, type RunRecord } from '../../src/store/model/types.js';
import { withLiveRun } from '../../src/watch/live-store.js';

const row = (startedAt: number, urls: number, over: Partial<RunRecord> = {}): RunRecord => ({
	v: RECORD_VERSION,
	startedAt,
	endedAt: startedAt + 1,
	urls,
	changed: 0,
	notModified: 0,
	sameHash: 0,
	errors: 0,
	bytes: 0,
	fullBytes: 0,
	notDue: 0,
	blockedHosts: [],
	hosts: {},
	...over,
});
const detail = (startedAt: number, url: string): RunDetail => ({
	v: RECORD_VERSION,
	startedAt,
	changes: [{ url, reason: 'changed', changed: true }],
	errors: [],
	errorCounts: {},
	dropped: { changes: 0, errors: 0 },
});

function liveRun(startedAt: number, urls: () => number, ended = false): LiveRun {
	return { key: runKey(startedAt), row: () => row(startedAt, urls(), { unfinished: true }), detail: () => detail(startedAt, 'https://live/'), ended };
}

async function rows(store: MemoryStore | ReturnType<typeof withLiveRun>): Promise<Array<[string, RunRecord]>> {
	const out: Array<[string, RunRecord]> = [];
	for await (const entry of store.runEntries()) out.push(entry);
	return out;
}

describe('withLiveRun', () => {
	it("shows the live run's row as it stands, in its place among the stored rows, over the one it stored as it went", async () => {
		const store = new MemoryStore();
		await store.batch([
			{ type: 'putRun', key: runKey(1000), value: row(1000, 1) },
			{ type: 'putRun', key: runKey(2000), value: row(2000, 3, { unfinished: true }) },
		]);
		let urls = 7;
		const view = withLiveRun(store, () => liveRun(2000, () => urls));
		expect((await rows(view)).map(([key, value]) => [key, value.urls, value.live])).toEqual([
			[runKey(1000), 1, undefined],
			[runKey(2000), 7, true],
		]);
		urls = 8;
		expect((await rows(view)).at(-1)![1]).toMatchObject({ urls: 8, live: true, unfinished: true });
		expect(await view.getRunDetails([runKey(1000), runKey(2000)])).toEqual([undefined, detail(2000, 'https://live/')]);
	});

	it('places a live run with no stored row yet, and shows none once it ended or before one began', async () => {
		const store = new MemoryStore();
		await store.batch([
			{ type: 'putRun', key: runKey(1000), value: row(1000, 1) },
			{ type: 'putRun', key: runKey(3000), value: row(3000, 1) },
		]);
		let current: LiveRun | undefined;
		const view = withLiveRun(store, () => current);
		expect((await rows(view)).map(([key]) => key)).toEqual([runKey(1000), runKey(3000)]);
		current = liveRun(2000, () => 2);
		expect((await rows(view)).map(([key, value]) => [key, value.live])).toEqual([
			[runKey(1000), undefined],
			[runKey(2000), true],
			[runKey(3000), undefined],
		]);
		current = liveRun(4000, () => 2);
		expect((await rows(view)).map(([key]) => key)).toEqual([runKey(1000), runKey(3000), runKey(4000)]);
		current = liveRun(4000, () => 2, true);
		expect((await rows(view)).map(([key]) => key)).toEqual([runKey(1000), runKey(3000)]);
	});
});
