import { describe, expect, it } from 'vitest';
import { countTask, createSummary, formatSummary } from '../../src/pipelines/summary.js';
import { wanted } from '../../src/stages/emit.js';
import type { Task } from '../../src/types.js';

describe('summary: robots.txt verdicts', () => {
	it('counts robots and deferred URLs apart: not changed, not errors, in no host figures; the line says how to opt out', () => {
		const summary = createSummary();
		const task = (url: string, reason: 'robots' | 'deferred'): Task => ({ line: 1, input: url, url, origin: 'https://a.test', verdict: { url, changed: false, reason } });
		countTask(summary, task('https://a.test/p/1', 'robots'));
		countTask(summary, task('https://a.test/p/2', 'robots'));
		countTask(summary, task('https://a.test/q', 'deferred'));
		expect(summary).toMatchObject({ urls: 3, robots: 2, deferred: 1, changed: 0, errors: 0, hosts: {} });
		const line = formatSummary(summary);
		expect(line).toContain('2 disallowed by robots.txt (not checked; --robots ignore for your own sites)');
		expect(line).toContain('1 deferred to the next run (robots.txt)');
	});

	it('prints them to an all output, not to a changed, error or unchanged one', () => {
		const verdict = { url: 'https://a.test/p', changed: false, reason: 'robots' as const };
		expect(['all', 'changed', 'error', 'unchanged'].map((when) => wanted(verdict, when as 'all'))).toEqual([true, false, false, false]);
	});
});
