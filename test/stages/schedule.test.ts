import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { due, isDue } from '../../src/stages/due.js';
import { schedule } from '../../src/stages/schedule.js';
import type { Task } from '../../src/domain/task/types.js';
import { OptionError } from '../../src/base/errors/index.js';

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

	it('sets the adaptive interval to ln 2 over the estimated rate, within bounds, and keeps the history and rate', async () => {
		const bounds = { adaptive: true, minIntervalMs: H, maxIntervalMs: 1000 * H };
		const unchanged = await run(judged(false), bounds);
		expect(unchanged.checks).toEqual([100 * 60]);
		expect(unchanged.interval).toBe(Math.round((Math.LN2 / unchanged.rate!) * 24 * H));
		const changed = await run(judged(true), bounds);
		expect(changed.checks).toEqual([-100 * 60]);
		expect(changed.rate).toBeGreaterThan(unchanged.rate!);
		expect(changed.interval).toBeLessThan(unchanged.interval!);
		expect((await run(judged(false), { ...bounds, maxIntervalMs: 2 * H })).interval).toBe(2 * H);
	});

	it('shows the rate on the verdict, and starts no history for a new URL', async () => {
		const task = { ...judged(true), record: null, verdict: { url: 'https://a/', changed: true, reason: 'new' as const } };
		const out = (await lastValueFrom(from([task]).pipe(schedule({}), toArray())))[0]!;
		expect(out.next).toMatchObject({ checks: [], rate: 0.25 });
		expect(out.verdict!.rate).toBe(0.25);
	});

	it('refuses bounds the wrong way round', () => {
		expect(() => schedule({ adaptive: true, minIntervalMs: 2 * H, maxIntervalMs: H })).toThrow(OptionError);
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
