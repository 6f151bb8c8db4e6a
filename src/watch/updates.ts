import { concatMap, defer, ignoreElements, type Observable, tap, timer } from 'rxjs';
import type { WatchClock } from './clock.js';
import type { WatchObserver } from './run.js';
import type { Sayings } from './say.js';
import type { Threshold } from './threshold.js';

/** How often μ is solved again (wall ms), at most and at least. */
const UPDATE_WALL_MS = 2000;
const MIN_UPDATE_WALL_MS = 50;

/**
 * The watch's threshold μ solved again from the schedule as it stands, at once and then
 * every 2 s, or every hour of the schedule's clock when that comes sooner (--time-scale):
 * the correction steps once an hour. Each update tells the observer (the schedule's
 * figures, the model) and what the watch says of it; it emits nothing and runs until
 * unsubscribed.
 *
 * @example
 * thresholdUpdates(threshold, say, { clock, observer, checksPerDay }).pipe(takeUntil(over))
 */
export function thresholdUpdates(
	threshold: Threshold,
	say: Sayings,
	context: { clock: WatchClock; observer?: WatchObserver | undefined; checksPerDay: number },
): Observable<never> {
	const update = defer(() => threshold.update()).pipe(
		tap((stats) => {
			context.observer?.queue?.(stats);
			context.observer?.model?.({ ...threshold.model, mu: threshold.mu, target: context.checksPerDay / 86_400 });
			say.updated(threshold.model.mu, stats, context.clock.now());
		}),
	);
	const every = Math.max(MIN_UPDATE_WALL_MS, Math.min(UPDATE_WALL_MS, context.clock.wallMs(3_600_000)));
	return timer(0, every).pipe(
		concatMap(() => update),
		ignoreElements(),
	);
}
