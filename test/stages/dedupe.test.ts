import { from, lastValueFrom, map, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { dedupe } from '../../src/stages/dedupe.js';
import type { Task } from '../../src/domain/task/types.js';

const task = (line: number, url?: string, skip?: Task['skip']): Task =>
	url ? { line, input: url, url, ...(skip ? { skip } : {}) } : { line, input: 'x', skip: 'rejected', problem: 'bad' };

/** A stand-in for the deciding stages: skips the URLs in `skips` with the reason given, as new objects (the budget copies its tasks). */
const decideBy = (skips: Record<string, Task['skip']>) => map((t: Task): Task => (t.skip || skips[t.url!] === undefined ? t : { ...t, skip: skips[t.url!] }));

describe('dedupe', () => {
	it('marks a URL seen earlier in the run as duplicate and passes others through', async () => {
		const out = await lastValueFrom(from([task(1, 'https://a/'), task(2), task(3, 'https://a/'), task(4, 'https://b/')]).pipe(dedupe(), toArray()));
		expect(out.map((t) => t.skip)).toEqual([undefined, 'rejected', 'duplicate', undefined]);
	});

	it('starts afresh for each subscription', async () => {
		const run$ = from([task(1, 'https://a/')]).pipe(dedupe());
		await lastValueFrom(run$);
		expect((await lastValueFrom(run$)).skip).toBeUndefined();
	});

	it('judges again a URL its deciding stages left unchecked, and counts it under their reason', async () => {
		const skips = { 'https://later/': 'later', 'https://not-due/': 'not-due', 'https://signal/': 'signal', 'https://filtered/': 'filtered' } as const;
		const urls = Object.keys(skips);
		const out = await lastValueFrom(from([...urls, ...urls].map((url, i) => task(i + 1, url))).pipe(dedupe(decideBy(skips)), toArray()));
		expect(out.map((t) => t.skip)).toEqual([...Object.values(skips), ...Object.values(skips)]);
	});

	it('never lets a checked URL through twice, whatever happens to its copies', async () => {
		// Line 2 is the duplicate of a URL being checked: the decision on it must not free line 1's key.
		const out = await lastValueFrom(
			from([task(1, 'https://a/'), task(2, 'https://a/'), task(3, 'https://a/')]).pipe(
				dedupe(map((t) => (t.line === 2 ? { ...t, skip: 'later' as const } : t))),
				toArray(),
			),
		);
		expect(out.map((t) => t.skip)).toEqual([undefined, 'later', 'duplicate']);
	});

	it('keeps the key of the URL being checked when a copy arrives already skipped', async () => {
		const out = await lastValueFrom(from([task(1, 'https://a/'), task(2, 'https://a/', 'later'), task(3, 'https://a/')]).pipe(dedupe(), toArray()));
		expect(out.map((t) => t.skip)).toEqual([undefined, 'later', 'duplicate']);
	});
});
