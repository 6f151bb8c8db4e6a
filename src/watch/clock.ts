import { queueNow } from '../store/due/clock.js';
import type { QueueClock } from '../store/model/due.js';
import type { Clock } from '../domain/task/clock.js';
import { OptionError } from '../base/errors/index.js';

/**
 * The schedule's clock for a watch: `--now T` starts it at T, `--time-scale S` runs it S
 * times faster than the wall clock. Stages read it as their clock, so change rates,
 * due times and `--rate` are all in schedule time; politeness stays in wall time.
 *
 * @example
 * const clock = watchClock({ now: Date.parse('2026-01-01'), scale: 3600 }); // an hour a second
 */
export function watchClock(options: { now?: number | undefined; scale?: number | undefined } = {}, wall: () => number = Date.now): WatchClock {
	const wall0 = wall();
	const scale = options.scale ?? 1;
	if (!(scale > 0 && Number.isFinite(scale))) throw new OptionError('scale', `Expected a time scale above 0, got ${scale}`);
	return clockOf({ at0: options.now ?? wall0, wall0, scale }, wall);
}

/** The schedule's clock as stages and timers read it. */
export type WatchClock = Clock & { readonly queue: QueueClock; wallMs(scheduleMs: number): number };

/**
 * A watch clock running on `queue` (one a store's schedule kept: `DueQueue.adoptClock`).
 *
 * @example
 * clockOf(await queue.adoptClock(watchClock(options).queue, false)).now()
 */
export function clockOf(queue: QueueClock, wall: () => number = Date.now): WatchClock {
	return { queue, now: () => queueNow(queue, wall()), wallMs: (scheduleMs) => scheduleMs / queue.scale };
}
