import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { filter } from '../../src/stages/filter.js';
import type { Task } from '../../src/domain/task/types.js';

const task = (url: string, extra: Partial<Task> = {}): Task => ({ line: 1, input: url, url, ...extra });
const run = async (options: Parameters<typeof filter>[0], tasks: Task[]) =>
	(await lastValueFrom(of(...tasks).pipe(filter(options), toArray()))).map((t) => t.skip ?? 'kept');

describe('filter stage', () => {
	it('keeps URLs matching an include and none of the excludes, marking the rest filtered', async () => {
		const tasks = ['https://a.example/docs/x', 'https://a.example/docs/x.pdf', 'https://a.example/blog/y'].map((url) => task(url));
		expect(await run({ include: ['/docs/'], exclude: ['\\.pdf$'] }, tasks)).toEqual(['kept', 'filtered', 'filtered']);
		expect(await run({}, tasks)).toEqual(['kept', 'kept', 'kept']);
		expect(await run({ include: [/BLOG/i, /docs\/x$/g] }, [...tasks, tasks[0]!])).toEqual(['kept', 'filtered', 'kept', 'kept']);
	});

	it('with sameHost, drops URLs listed by a document on another host; URLs from elsewhere pass', async () => {
		const from = 'https://a.example/sitemap.xml';
		expect(await run({ sameHost: true }, [task('https://a.example/1', { from }), task('https://b.example/2', { from }), task('https://b.example/3')])).toEqual([
			'kept',
			'filtered',
			'kept',
		]);
	});

	it('leaves skipped tasks alone and checks patterns when built', async () => {
		expect(await run({ include: ['^x'] }, [task('https://a.example/', { skip: 'rejected' })])).toEqual(['rejected']);
		expect(() => filter({ exclude: ['(a'] })).toThrow('Expected `exclude` to hold regular expressions');
	});
});
