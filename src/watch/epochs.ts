import { concat, defer, EMPTY, finalize, ignoreElements, merge, type Observable, of, repeat, Subject, takeUntil, tap } from 'rxjs';
import type { Task } from '../domain/task/types.js';
import type { LiveOptions, LiveRun } from '../pipelines/live-run.js';
import { createSummary, type Summary } from '../pipelines/summary.js';
import type { WatchClock } from './clock.js';
import type { WatchObserver } from './run.js';

/** Least wall ms between two writes of an epoch's row as it goes, and of its changed URLs (live-run.ts): a kill loses a second of the row. */
const LIVE_ROW_WALL_MS = 1000;
const LIVE_DETAIL_WALL_MS = 60_000;

/** One epoch of a watch, as `watchEpochs` hands it to the run: a run in the history. */
export interface Epoch {
	/** Its counts: its row in the history. */
	summary: Summary;
	/** When it ends, on the schedule's clock: no URL is claimed past it. */
	until: number;
	/** Its row stored as it goes and shown live (`RunPlan.live`): a watch killed with -9 leaves its hours in history. */
	live: LiveOptions;
}

/**
 * A watch's run repeated in epochs, each a run in the history (its row, its report detail),
 * so that `revisit history` and `revisit report` see a watch as they see sweeps: each
 * `epochMs` long on the schedule's clock, and at least `minEpochWallMs` of wall time.
 * Once an epoch's checks are done, the claims' ends it sent are waited for (`settle`) and
 * the observer told of its row (`epoch`). The next begins at once, unless `stop` has
 * fired or the clock has reached `until`; then this completes.
 *
 * @example
 * watchEpochs(
 *   (epoch) => runTasks(deps, { ...plan, live: epoch.live, input: … epoch.until … }, epoch.summary),
 *   { clock, epochMs: 3_600_000, minEpochWallMs: 1000, stop, settle: () => reschedules.flush() },
 * )
 */
export function watchEpochs(
	run: (epoch: Epoch) => Observable<Task>,
	context: {
		clock: WatchClock;
		epochMs: number;
		minEpochWallMs: number;
		until?: number | undefined;
		stop: Observable<unknown>;
		observer?: WatchObserver | undefined;
		settle(): Promise<void>;
	},
): Observable<Task> {
	const { clock, observer } = context;
	const scale = clock.wallMs(1);
	const reachedUntil = (): boolean => context.until !== undefined && clock.now() >= context.until;
	const epoch = defer(() => {
		const summary = createSummary();
		const end = clock.now() + Math.max(context.epochMs, context.minEpochWallMs / scale);
		const until = Math.min(end, context.until ?? Infinity);
		const live = { rowEveryMs: LIVE_ROW_WALL_MS, detailEveryMs: LIVE_DETAIL_WALL_MS, started: (row: LiveRun) => observer?.started?.(row) };
		return concat(
			run({ summary, until, live }),
			defer(async () => {
				await context.settle();
				observer?.epoch?.(summary);
			}).pipe(ignoreElements()),
		);
	});
	return defer(() => {
		// A stop that fires during an epoch ends the watch after it.
		let stopped = false;
		const ended = new Subject<void>();
		const stopping = context.stop.pipe(
			tap(() => (stopped = true)),
			ignoreElements(),
			takeUntil(ended),
		);
		const epochs = epoch.pipe(
			repeat({ delay: () => (stopped || reachedUntil() ? EMPTY : of(0)) }),
			finalize(() => ended.next()),
		);
		return merge(epochs, stopping);
	});
}
