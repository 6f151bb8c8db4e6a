import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';
import { OptionError } from '../base/errors/index.js';

export interface DueOptions {
	/** Skip URLs checked less than this long ago (ms), when the record has no stored due time. */
	ttlMs?: number | undefined;
}

/**
 * Marks `not-due` the tasks whose URL is not due yet: its stored next-due time is in
 * the future, or (with a TTL) it was checked less than the TTL ago. They get no verdict
 * and are counted in the summary.
 *
 * @example
 * tasks$.pipe(lookup({}, store), due({ ttlMs: 6 * 3600_000 }, clock), probe(...))
 */
export function due(options: DueOptions, clock: Clock): MonoTypeOperatorFunction<Task> {
	const { ttlMs } = options;
	if (ttlMs !== undefined && (!Number.isFinite(ttlMs) || ttlMs <= 0))
		throw new OptionError('ttlMs', `Expected \`ttlMs\` to be a positive number, got \`${ttlMs}\``);
	return map((task) => {
		if (task.skip || !task.record) return task;
		if (!isDue(task.record, ttlMs, clock.now())) task.skip = 'not-due';
		return task;
	});
}

/** Whether a stored URL is due at `now`. */
export function isDue(record: { nextDue?: number; lastChecked: number }, ttlMs: number | undefined, now: number): boolean {
	if (record.nextDue !== undefined) return record.nextDue <= now;
	return ttlMs === undefined || record.lastChecked + ttlMs <= now;
}
