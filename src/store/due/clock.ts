import type { QueueClock } from '../model/due.js';

/**
 * The schedule's time now: `clock.at0` at wall time `clock.wall0`, running `clock.scale`
 * times faster than the wall clock.
 *
 * @example
 * queueNow({ at0: 0, wall0: Date.now() - 1000, scale: 60 }) // about 60000
 */
export function queueNow(clock: QueueClock, wall: number = Date.now()): number {
	return clock.at0 + (wall - clock.wall0) * clock.scale;
}
