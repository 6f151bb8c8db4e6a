import { describe, expect, it } from 'vitest';
import { liveWriter } from '../../src/pipelines/live-run.js';
import { createRunDetail } from '../../src/pipelines/run-detail.js';
import { RECORD_VERSION, type RunRecord } from '../../src/store/model/types.js';

const row = (urls: number): RunRecord => ({
	v: RECORD_VERSION,
	startedAt: 1000,
	endedAt: 1000 + urls,
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
});

describe('liveWriter', () => {
	it('writes the row, unfinished, with a commit at most once per rowEveryMs of wall time, as it stands then', () => {
		let wall = 0;
		let urls = 0;
		const detail = createRunDetail(1000);
		const live = liveWriter({ started: 1000, row: () => row(urls), detail }, { rowEveryMs: 1000, detailEveryMs: 60_000, wallNow: () => wall });
		urls = 3;
		expect(live.operations()).toEqual([{ type: 'putRun', key: live.run.key, value: { ...row(3), unfinished: true } }]);
		urls = 5;
		wall = 999;
		expect(live.operations()).toEqual([]);
		wall = 1000;
		expect(live.operations()).toEqual([{ type: 'putRun', key: live.run.key, value: { ...row(5), unfinished: true } }]);
		// Read live, the row is always as it stands.
		urls = 6;
		expect(live.run.row()).toMatchObject({ urls: 6, unfinished: true });
	});

	it('writes the detail once it has changes, again only when it grew and detailEveryMs passed', () => {
		let wall = 0;
		const detail = createRunDetail(1000);
		const live = liveWriter({ started: 1000, row: () => row(0), detail }, { rowEveryMs: 0, detailEveryMs: 60_000, wallNow: () => wall });
		const details = () => live.operations().filter((operation) => operation.type === 'putRunDetail');
		expect(details()).toEqual([]);
		expect(live.run.detail()).toBeUndefined();
		detail.changes.push({ url: 'https://a/', reason: 'changed', changed: true });
		expect(details()).toEqual([
			{ type: 'putRunDetail', key: live.run.key, value: expect.objectContaining({ changes: [expect.objectContaining({ url: 'https://a/' })] }) },
		]);
		detail.changes.push({ url: 'https://b/', reason: 'changed', changed: true });
		wall = 59_999;
		expect(details()).toEqual([]);
		wall = 60_000;
		expect(details()).toHaveLength(1);
		wall = 200_000;
		expect(details()).toEqual([]);
		// The draft's working fields stay out of what is stored and shown.
		expect(Object.keys(live.run.detail()!)).not.toContain('diffChars');
	});

	it('is ended once the run stored its finished row', () => {
		const live = liveWriter({ started: 1000, row: () => row(0), detail: createRunDetail(1000) }, { rowEveryMs: 1000, detailEveryMs: 1000 });
		expect(live.run.ended).toBe(false);
		live.end();
		expect(live.run.ended).toBe(true);
	});
});
