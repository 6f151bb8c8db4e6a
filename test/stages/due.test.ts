import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { due, isDue } from '../../src/stages/due.js';
import { RECORD_VERSION, type UrlRecord } from '../../src/store/model/types.js';
import type { Task } from '../../src/domain/task/types.js';
import { fixedClock, NOW } from './deps.js';
import { OptionError } from '../../src/base/errors/index.js';

const HOUR = 3_600_000;
const record = (fields: Partial<UrlRecord>): UrlRecord => ({ v: RECORD_VERSION, status: 200, lastChecked: NOW - HOUR, ...fields });
const task = (name: string, stored: UrlRecord | null, more: Partial<Task> = {}): Task => ({
	line: 1,
	input: name,
	url: `https://a.example/${name}`,
	record: stored,
	...more,
});

async function run(tasks: Task[], ttlMs?: number): Promise<Record<string, Task['skip']>> {
	const out = await lastValueFrom(from(tasks).pipe(due({ ttlMs }, fixedClock), toArray()));
	return Object.fromEntries(out.map((t) => [t.input, t.skip]));
}

describe('due', () => {
	it('marks not-due a URL whose stored next-due time is still ahead, and lets one that has come through', async () => {
		const skips = await run([task('ahead', record({ nextDue: NOW + 1 })), task('now', record({ nextDue: NOW })), task('past', record({ nextDue: NOW - 1 }))]);
		expect(skips).toEqual({ ahead: 'not-due', now: undefined, past: undefined });
	});

	it('with a TTL, marks not-due a URL checked less than the TTL ago', async () => {
		const skips = await run(
			[
				task('recent', record({ lastChecked: NOW - HOUR })),
				task('old', record({ lastChecked: NOW - 3 * HOUR })),
				task('edge', record({ lastChecked: NOW - 2 * HOUR })),
			],
			2 * HOUR,
		);
		expect(skips).toEqual({ recent: 'not-due', old: undefined, edge: undefined });
	});

	it('lets a stored next-due time win over the TTL', async () => {
		const skips = await run([task('scheduled', record({ lastChecked: NOW - 10, nextDue: NOW - 1 }))], 2 * HOUR);
		expect(skips).toEqual({ scheduled: undefined });
	});

	it('always lets through a URL never seen, and everything when there is no TTL and no due time', async () => {
		const skips = await run([task('new', null), task('checked', record({ lastChecked: NOW - 1 }))]);
		expect(skips).toEqual({ new: undefined, checked: undefined });
	});

	it('does not touch a task already skipped', async () => {
		const skips = await run([task('dup', record({ nextDue: NOW + HOUR }), { skip: 'duplicate' })]);
		expect(skips).toEqual({ dup: 'duplicate' });
	});

	it('refuses a TTL that is not a positive number', () => {
		expect(() => due({ ttlMs: 0 }, fixedClock)).toThrow(OptionError);
		expect(() => due({ ttlMs: Number.NaN }, fixedClock)).toThrow(OptionError);
	});

	it('isDue answers the same question for one record', () => {
		expect(isDue({ lastChecked: NOW - HOUR }, 2 * HOUR, NOW)).toBe(false);
		expect(isDue({ lastChecked: NOW - HOUR, nextDue: NOW }, 2 * HOUR, NOW)).toBe(true);
	});
});
