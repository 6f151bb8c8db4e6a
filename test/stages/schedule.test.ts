import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { due, isDue } from '../../src/stages/due.js';
import { schedule } from '../../src/stages/schedule.js';
import type { Task } from '../../src/types.js';

const H = 3_600_000;
const judged = (changed: boolean, interval?: number): Task => ({
	line: 1,
	input: 'u',
	url: 'https://a/',
	record: { v: 1, status: 200, lastChecked: 0, ...(interval ? { interval } : {}) },
	verdict: { url: 'https://a/', changed, reason: changed ? 'new-body' : '304' },
	next: { v: 1, status: 200, lastChecked: 100 * H },
});
const run = async (task: Task, options: Parameters<typeof schedule>[0]) => (await lastValueFrom(from([task]).pipe(schedule(options), toArray())))[0]!.next!;

describe('schedule', () => {
	it('stores a fixed next due time with a TTL', async () => {
		expect(await run(judged(false), { ttlMs: 6 * H })).toMatchObject({ interval: 6 * H, nextDue: 106 * H });
	});

	it('grows the interval while a URL stays unchanged and shrinks it when it changes, within bounds', async () => {
		const bounds = { adaptive: true, minIntervalMs: H, maxIntervalMs: 10 * H, factor: 0.2 };
		expect((await run(judged(false, 5 * H), bounds)).interval).toBe(6 * H);
		expect((await run(judged(true, 5 * H), bounds)).interval).toBe(4 * H);
		expect((await run(judged(false, 9.5 * H), bounds)).interval).toBe(10 * H);
		expect((await run(judged(true, 1.1 * H), bounds)).interval).toBe(H);
	});

	it('refuses a factor above 0.4, which makes intervals oscillate', () => {
		expect(() => schedule({ adaptive: true, factor: 0.5 })).toThrow(TypeError);
	});
});

describe('due', () => {
	it('skips a URL whose next due time is ahead, or that was checked within the TTL', async () => {
		const clock = { now: () => 10 * H };
		const tasks: Task[] = [
			{ line: 1, input: 'a', url: 'a', record: { v: 1, status: 200, lastChecked: 0, nextDue: 11 * H } },
			{ line: 2, input: 'b', url: 'b', record: { v: 1, status: 200, lastChecked: 9 * H } },
			{ line: 3, input: 'c', url: 'c', record: { v: 1, status: 200, lastChecked: 0 } },
			{ line: 4, input: 'd', url: 'd', record: null },
		];
		const out = await lastValueFrom(from(tasks).pipe(due({ ttlMs: 2 * H }, clock), toArray()));
		expect(out.map((t) => t.skip)).toEqual(['not-due', 'not-due', undefined, undefined]);
		expect(isDue({ lastChecked: 0, nextDue: 10 * H }, undefined, 10 * H)).toBe(true);
	});
});
