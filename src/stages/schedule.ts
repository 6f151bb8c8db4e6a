import { map, type MonoTypeOperatorFunction } from 'rxjs';
import { addCheck, estimateRate, UNOBSERVED_REASONS } from '../domain/schedule/rate.js';
import type { Task } from '../domain/task/types.js';
import { OptionError } from '../base/errors/index.js';

export interface ScheduleOptions {
	/** Fixed revisit interval in ms. */
	ttlMs?: number | undefined;
	/** Each URL's interval from its estimated rate of change: ln 2 / rate, within [min, max]. */
	adaptive?: boolean | undefined;
	minIntervalMs?: number | undefined;
	maxIntervalMs?: number | undefined;
}

const DAY_MS = 86_400_000;

/**
 * Keeps each URL's change history and rate on the record about to be committed (see
 * domain/schedule/rate.ts), shows the rate on the verdict, and sets the next due time: with a
 * TTL a fixed interval; with `adaptive` the time by which the page has even odds of
 * having changed, ln 2 / rate, within [min, max].
 *
 * @example
 * tasks$.pipe(compare(...), schedule({ adaptive: true, minIntervalMs: 3600_000, maxIntervalMs: 7 * 86400_000 }))
 */
export function schedule(options: ScheduleOptions): MonoTypeOperatorFunction<Task> {
	const minMs = options.minIntervalMs ?? 3_600_000;
	const maxMs = options.maxIntervalMs ?? 30 * 86_400_000;
	if (!(minMs > 0 && maxMs >= minMs))
		throw new OptionError(minMs > 0 ? 'maxIntervalMs' : 'minIntervalMs', `Expected 0 < minIntervalMs <= maxIntervalMs, got ${minMs} and ${maxMs}`);
	const { ttlMs, adaptive } = options;

	return map((task) => {
		if (!task.next || !task.verdict) return task;
		// In place: `next` and `verdict` are this task's alone.
		const observed = task.record && !UNOBSERVED_REASONS.has(task.verdict.reason);
		const checks = observed
			? addCheck(task.record!.checks, task.next.lastChecked - task.record!.lastChecked, task.verdict.changed)
			: (task.record?.checks ?? []);
		const rate = Number(estimateRate(checks).toPrecision(4));
		task.next.checks = checks;
		// What the answer said about its own freshness (max-age, Expires): the max-age signal.
		const fresh = task.probe?.freshMs;
		if (fresh !== undefined && fresh > 0) task.next.freshUntil = task.next.lastChecked + fresh;
		else delete task.next.freshUntil;
		task.next.rate = rate;
		task.verdict.rate = rate;
		if (!adaptive && ttlMs === undefined) return task;
		const interval = adaptive ? clamp((Math.LN2 / rate) * DAY_MS, minMs, maxMs) : ttlMs!;
		task.next.interval = Math.round(interval);
		task.next.nextDue = task.next.lastChecked + task.next.interval;
		return task;
	});
}

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));
