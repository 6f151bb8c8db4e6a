import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../types.js';

export interface ScheduleOptions {
	/** Fixed revisit interval in ms. */
	ttlMs?: number | undefined;
	/** Adapt each URL's interval: longer while it stays unchanged, shorter when it changes. */
	adaptive?: boolean | undefined;
	minIntervalMs?: number | undefined;
	maxIntervalMs?: number | undefined;
	/** Step of the adaptive interval; above ~0.4 the interval oscillates (Nutch's experience). */
	factor?: number | undefined;
}

/**
 * Sets the next due time of every record about to be committed. With a TTL the
 * interval is fixed; with `adaptive` it grows by `factor` while the URL stays unchanged
 * and shrinks by it when the URL changes, within [min, max].
 *
 * @example
 * tasks$.pipe(compare(...), schedule({ adaptive: true, minIntervalMs: 3600_000, maxIntervalMs: 7 * 86400_000 }))
 */
export function schedule(options: ScheduleOptions): MonoTypeOperatorFunction<Task> {
	const minMs = options.minIntervalMs ?? 3_600_000;
	const maxMs = options.maxIntervalMs ?? 30 * 86_400_000;
	const factor = options.factor ?? 0.2;
	if (!(minMs > 0 && maxMs >= minMs)) throw new TypeError(`Expected 0 < minIntervalMs <= maxIntervalMs, got ${minMs} and ${maxMs}`);
	if (!(factor > 0 && factor <= 0.4)) throw new TypeError(`Expected \`factor\` in (0, 0.4], got \`${factor}\``);
	const { ttlMs, adaptive } = options;
	if (!adaptive && ttlMs === undefined) return (source) => source;

	return map((task) => {
		if (!task.next || !task.verdict) return task;
		let interval: number;
		if (adaptive) {
			const previous = task.record?.interval ?? clamp(ttlMs ?? minMs, minMs, maxMs);
			interval = clamp(previous * (task.verdict.changed ? 1 - factor : 1 + factor), minMs, maxMs);
		} else {
			interval = ttlMs!;
		}
		// In place: `next` is the record compare built for this task alone.
		task.next.interval = Math.round(interval);
		task.next.nextDue = task.next.lastChecked + task.next.interval;
		return task;
	});
}

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));
