import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { dedupe } from '../../src/stages/dedupe.js';
import type { Task } from '../../src/types.js';

const task = (line: number, url?: string): Task => (url ? { line, input: url, url } : { line, input: 'x', skip: 'rejected', problem: 'bad' });

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
});
