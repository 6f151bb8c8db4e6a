import { from, lastValueFrom, toArray } from 'rxjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHostBook, type HostBook } from '../../src/net/hosts/book.js';
import type { Plan } from '../../src/net/hosts/policy.js';
import { trustDefaults } from '../../src/net/hosts/trust-options.js';
import { observationOf, trust } from '../../src/stages/trust.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { RECORD_VERSION, type UrlRecord } from '../../src/store/model/types.js';
import type { ProbeResult, Task, Verdict } from '../../src/domain/task/types.js';
import { fixedClock, NOW } from './deps.js';

const ORIGIN = 'https://a.example';
const url = `${ORIGIN}/page`;
const both: Plan = { sendEtag: true, sendLastModified: true, audit: false, retest: false };
const stored: UrlRecord = { v: RECORD_VERSION, status: 200, etag: '"1"', lastModified: 'L1', hash: 'h1', encoding: 'gzip', lastChecked: NOW - 1000 };
const answer = (fields: Partial<ProbeResult>): ProbeResult => ({ status: 200, finalUrl: url, permanent: false, bytes: 10, ms: 1, ...fields });
const judged = (probe: ProbeResult, verdict: Partial<Verdict>, more: Partial<Task> = {}): Task => ({
	line: 1,
	input: url,
	url,
	origin: ORIGIN,
	record: stored,
	plan: both,
	probe,
	verdict: { url, changed: false, reason: '304', ...verdict },
	next: { ...stored, lastChecked: NOW },
	...more,
});

let book: HostBook;
beforeEach(async () => {
	book = createHostBook(new MemoryStore(), NOW);
	await book.load([ORIGIN]);
	book.drain();
});

const run = (tasks: Task[]) => lastValueFrom(from(tasks).pipe(trust(trustDefaults, { book, clock: fixedClock }), toArray()));

describe('trust', () => {
	it('counts a conditional request answered 304 on the host', async () => {
		await run([judged(answer({ status: 304 }), { reason: '304' })]);
		expect(book.get(ORIGIN)).toMatchObject({ conditional: 1, notModified: 1, missed304: 0, mode: 'conditional' });
	});

	it('distrusts a host at once when an audit finds a change its 304 hid', async () => {
		const probe = answer({ status: 304, audit: answer({ hash: 'h2' }) });
		await run([judged(probe, { changed: true, reason: 'audit' }, { plan: { ...both, audit: true } })]);
		expect(book.get(ORIGIN)).toMatchObject({ audits: 1, lies: 1, mode: 'unconditional', modeChangedAt: NOW });
	});

	it('counts an honest audit without changing the mode', async () => {
		const probe = answer({ status: 304, audit: answer({ hash: 'h1' }) });
		await run([judged(probe, { reason: '304' }, { plan: { ...both, audit: true } })]);
		expect(book.get(ORIGIN)).toMatchObject({ audits: 1, lies: 0, mode: 'conditional' });
	});

	it('counts a full answer with the same body and a new ETag as a missed 304 and as ETag churn', async () => {
		await run([
			judged(answer({ hash: 'h1', etag: '"2"', lastModified: 'L1' }), { reason: 'same-hash' }, { next: { ...stored, etag: '"2"', lastChecked: NOW } }),
		]);
		expect(book.get(ORIGIN)).toMatchObject({ missed304: 1, etagCompared: 1, etagChurn: 1, lastModifiedCompared: 1, lastModifiedChurn: 0 });
	});

	it('switches the ETag off after rotateAfter unchanged bodies with a new ETag each', async () => {
		const rotating = Array.from({ length: trustDefaults.rotateAfter }, (_, i) =>
			judged(answer({ hash: 'h1', etag: `"r${i}"`, lastModified: 'L1' }), { reason: 'same-hash' }, { next: { ...stored, etag: `"r${i}"`, lastChecked: NOW } }),
		);
		await run(rotating);
		expect(book.get(ORIGIN).etagOff).toBe(true);
		expect(book.get(ORIGIN).lastModifiedOff).toBeFalsy();
	});

	it('counts an error and a URL stored for the first time', async () => {
		await run([
			judged(answer({ status: 0, error: { code: 'ECONNRESET', message: 'reset' } }), { reason: 'error' }, { next: undefined }),
			judged(
				answer({ hash: 'n' }),
				{ changed: true, reason: 'new' },
				{ record: null, plan: { ...both, sendEtag: false, sendLastModified: false }, url: `${ORIGIN}/new` },
			),
		]);
		expect(book.get(ORIGIN)).toMatchObject({ errors: 1, urls: 1, conditional: 0 });
	});

	it('leaves the book alone for a task without a verdict, and marks a changed host for the next commit', async () => {
		const unjudged: Task = { line: 2, input: url, url, origin: ORIGIN, skip: 'not-due' };
		await run([unjudged]);
		expect(book.drain()).toEqual([]);
		await run([judged(answer({ status: 304 }), { reason: '304' })]);
		expect(book.drain()).toEqual([{ type: 'putHost', key: ORIGIN, value: book.get(ORIGIN) }]);
	});

	it('observationOf does not compare ETags obtained under different encodings', () => {
		const seen = observationOf(
			judged(
				answer({ hash: 'h1', etag: '"2"', lastModified: 'L1' }),
				{ reason: 'same-hash' },
				{ next: { ...stored, etag: '"2"', encoding: 'br', lastChecked: NOW } },
			),
		);
		expect(seen).toMatchObject({ sameBody: true, lastModifiedChanged: false });
		expect(seen).not.toHaveProperty('etagChanged');
	});
});
