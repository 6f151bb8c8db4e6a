import { describe, expect, it } from 'vitest';
import { countTask, createSummary, formatSummary, runRecord, someFailed } from '../../src/pipelines/summary.js';
import { wanted } from '../../src/stages/emit.js';
import type { Reason, Task, Verdict } from '../../src/domain/task/types.js';

const task = (url: string, reason: Reason, extra: Partial<Verdict> = {}): Task => ({
	line: 1,
	input: url,
	url,
	origin: 'https://a.test',
	verdict: { url, changed: false, reason, ...extra },
});

describe('summary: robots.txt verdicts', () => {
	it('counts robots and deferred URLs apart: not changed, not errors, in no host figures; the line says how to opt out', () => {
		const summary = createSummary();
		countTask(summary, task('https://a.test/p/1', 'robots'));
		countTask(summary, task('https://a.test/p/2', 'robots'));
		countTask(summary, task('https://a.test/q', 'deferred'));
		expect(summary).toMatchObject({ urls: 3, robots: 2, deferred: 1, unreachable: 0, changed: 0, errors: 0, hosts: {} });
		const line = formatSummary(summary);
		expect(line).toContain('2 disallowed by robots.txt (not checked; --robots ignore for your own sites)');
		expect(line).toContain('1 not checked: Crawl-delay above --max-crawl-delay, deferred to the next run');
		// Disallowed, or deferred by a Crawl-delay: left alone on purpose, nothing failed.
		expect(someFailed(summary)).toBe(false);
	});

	it('counts a URL deferred because robots.txt could not be had as not checked, names the code, and fails the run', () => {
		const summary = createSummary();
		const refused = { error: { code: 'ECONNREFUSED', message: 'robots.txt answered ECONNREFUSED' } };
		countTask(summary, task('https://a.test/1', 'deferred', refused));
		countTask(summary, task('https://a.test/2', 'deferred', refused));
		expect(summary).toMatchObject({ deferred: 2, unreachable: 2, unreachableCodes: { ECONNREFUSED: 2 }, errors: 0 });
		expect(formatSummary(summary)).toContain('2 not checked: robots.txt unreachable (ECONNREFUSED), deferred to the next run');
		expect(formatSummary(summary)).not.toContain('Crawl-delay');
		expect(someFailed(summary)).toBe(true);
		countTask(summary, task('https://b.test/1', 'deferred', { error: { code: 'HTTP_503', message: 'robots.txt answered HTTP 503' } }));
		expect(formatSummary(summary)).toContain('3 not checked: robots.txt unreachable (ECONNREFUSED 2, HTTP_503 1)');
	});

	it('prints them to an all output, not to a changed, error or unchanged one', () => {
		const verdict = { url: 'https://a.test/p', changed: false, reason: 'robots' as const };
		expect(['all', 'changed', 'error', 'unchanged'].map((when) => wanted(verdict, when as 'all'))).toEqual([true, false, false, false]);
	});
});

describe('summary: unchanged reasons', () => {
	it('counts same-hash, same-content and rebaseline apart, in the line and in the run record', () => {
		const summary = createSummary();
		countTask(summary, task('https://a.test/1', 'same-hash'));
		countTask(summary, task('https://a.test/2', 'same-content'));
		countTask(summary, task('https://a.test/3', 'same-content'));
		countTask(summary, task('https://a.test/4', 'rebaseline'));
		expect(summary).toMatchObject({ sameHash: 1, sameContent: 2, rebaseline: 1 });
		expect(formatSummary(summary)).toMatch(/^4 URLs, 0 changed, 0 304s, 1 same-hash, 2 same-content, 1 rebaselined, 0 errors, /);
		expect(runRecord(summary, 0, 1)).toMatchObject({ sameHash: 1, sameContent: 2, rebaseline: 1 });
	});

	it('leaves same-content and rebaselined out of the line when there are none', () => {
		const summary = createSummary();
		countTask(summary, task('https://a.test/1', 'same-hash'));
		expect(formatSummary(summary)).toMatch(/^1 URL, 0 changed, 0 304s, 1 same-hash, 0 errors, /);
	});
});

describe('summary: plurals', () => {
	it('says 1 URL, 1 error, 1 bad line, 1 duplicate, 1 second fetch', () => {
		const summary = { ...createSummary(), urls: 1, errors: 1, rejected: 1, duplicates: 1, noiseFetches: 1 };
		const line = formatSummary(summary);
		expect(line).toMatch(/^1 URL, /);
		expect(line).toContain(', 1 error, ');
		expect(line).toContain(', 1 bad line, ');
		expect(line).toContain(', 1 duplicate, ');
		expect(line).toContain(', 1 second fetch for noise, ');
		expect(formatSummary({ ...summary, urls: 2, errors: 2, rejected: 2 })).toMatch(/^2 URLs, .*, 2 errors, 2 bad lines, /);
	});
});

describe('summary: a watch', () => {
	it('names the URLs watched and the checks apart, where a run names its URLs', () => {
		const summary = createSummary();
		for (let i = 0; i < 3; i++) countTask(summary, task('https://a.test/p/1', '304'));
		countTask(summary, task('https://a.test/p/2', 'new-body', { changed: true }));
		expect(formatSummary(summary)).toMatch(/^4 URLs, 1 changed, 3 304s, /);
		expect(formatSummary(summary, { watched: 2 })).toMatch(/^2 URLs watched, 4 checks, 1 changed, 3 304s, /);
		expect(formatSummary(createSummary(), { watched: 1 })).toMatch(/^1 URL watched, 0 checks, 0 changed, /);
	});
});

describe('summary: product pages with no offer', () => {
	it('counts the verdicts that say no-offer, and says so only when there are some', () => {
		const summary = createSummary();
		expect(formatSummary(summary)).not.toContain('no offer');
		countTask(summary, task('https://a.test/p/1', 'new', { changed: true, product: null, problem: 'no-offer' }));
		countTask(summary, task('https://a.test/p/2', 'same-content', { product: null, problem: 'no-offer' }));
		countTask(summary, task('https://a.test/p/3', 'new', { changed: true, product: { price: 5 } }));
		expect(summary.noOffer).toBe(2);
		expect(formatSummary(summary)).toContain(', 2 with no offer (--product), ');
		expect(someFailed(summary)).toBe(false);
	});
});
