import { finalize, merge, type Observable, of, share, Subject, switchMap, takeUntil, tap } from 'rxjs';
import { composeRun, type RunEdges } from '../pipelines/compose.js';
import type { WatchJob } from './job.js';
import type { Outbox } from '../io/outbox/open.js';
import { runTasks } from '../pipelines/run.js';
import type { LiveRun } from '../pipelines/live-run.js';
import type { SweepDeps } from '../pipelines/sweep.js';
import type { WatchClock } from './clock.js';
import type { Task } from '../domain/task/types.js';
import type { InputBatch } from './inputs.js';
import { dispatch } from './dispatch.js';
import { nextDue } from './reschedule.js';
import { createThreshold } from './threshold.js';
import { thresholdUpdates } from './updates.js';
import { withTurns } from './turns.js';
import { gapsToQueue } from './gaps.js';
import { admitInputs } from './admission.js';
import { claimLimits, createClaims } from './claims.js';
import { createReschedules } from './reschedules.js';
import { watchEpochs } from './epochs.js';
import type { Summary } from '../pipelines/summary.js';
import type { DueQueue, QueueStats } from '../store/model/due.js';
import { createSayings } from './say.js';

/** What the watch tells its metrics (see metrics.ts); every method optional. */
export interface WatchObserver {
	check?(task: Task): void;
	late?(seconds: number): void;
	queue?(stats: QueueStats): void;
	model?(figures: { mu: number; freshness: number; target: number; correction: number }): void;
	/** An epoch's run row was written (its summary). */
	epoch?(summary: Summary): void;
	/** An epoch began: its row and detail as they stand, for readers while it runs. */
	started?(run: LiveRun): void;
}

/**
 * What `runWatch` opened and decided for a job (job.ts): not data but live objects, the
 * watch's edges, its clock and schedule, its inputs, its stop, its observer and outbox.
 */
export interface WatchContext {
	edges: RunEdges;
	clock: WatchClock;
	/** The store's schedule, on `clock` (`DueQueue.adoptClock`). */
	queue: DueQueue;
	/** Stop at this schedule time (`--until`). */
	until?: number | undefined;
	/** Each epoch is a run in the history (its row, its report detail): this long in the schedule's clock, at least `minEpochWallMs` of wall time. */
	epochMs: number;
	minEpochWallMs: number;
	inputs: Observable<InputBatch>;
	/** Fires once to stop: in-flight checks finish and are committed. */
	stop: Observable<unknown>;
	observer?: WatchObserver | undefined;
	/** Where the feeds' deliveries go (openOutbox): committed with each change, sent by its worker. */
	outbox?: Outbox | undefined;
}

/**
 * The life of a watch over opened resources: inputs admitted into the store's schedule,
 * URLs claimed as they fall due and judged by the run's stages, each rescheduled once
 * its verdict is out. The run is repeated in epochs, each a run in the history, so that
 * `revisit history` and `revisit report` see a watch as they see sweeps. Completes when
 * `stop` fires or the clock reaches `until`, after the checks in flight are committed.
 *
 * @example
 * watchTasks(deps, job, context).subscribe({ complete: () => console.error('stopped') });
 */
export function watchTasks(deps: SweepDeps, job: WatchJob, plan: WatchContext): Observable<Task> {
	const options = job.shape.options;
	return of(plan.queue).pipe(
		switchMap((queue) => {
			const stop = plan.stop.pipe(share());
			// Admission and the threshold's updates go on until the epochs end: by a stop, or at --until.
			const ended = new Subject<void>();
			const over = merge(stop, ended);
			const threshold = createThreshold(queue, { checksPerDay: options.checksPerDay, bounds: job.bounds, now: () => plan.clock.now() });
			const say = createSayings({ diagnose: plan.edges.diagnose, checksPerDay: options.checksPerDay, bounds: job.bounds });
			const claims = createClaims({ threshold, say, observer: plan.observer, hostGapMs: job.hostGapMs });
			const reschedules = createReschedules(queue);
			const scale = plan.clock.wallMs(1);
			const runDeps: SweepDeps = {
				...deps,
				clock: plan.clock,
				limiter: withTurns(gapsToQueue(deps, queue, 1 / scale, job.hostGapMs, claims.spaced), queue, job.hostGapMs),
			};
			const updates = thresholdUpdates(threshold, say, { clock: plan.clock, observer: plan.observer, checksPerDay: options.checksPerDay }).pipe(
				takeUntil(over),
			);
			const admitted = admitInputs(plan.inputs, {
				queue,
				store: runDeps.store,
				book: runDeps.book,
				clock: plan.clock,
				say,
				diagnose: plan.edges.diagnose,
				observer: plan.observer,
				hostGapMs: job.hostGapMs,
			}).pipe(takeUntil(over));
			const limits = claimLimits(queue, options);
			const dispatching = { rate: options.checksPerDay / 86_400_000, perHost: limits.perHost, leaseMs: options.leaseMs / scale, wallMs: plan.clock.wallMs };
			const epochs = watchEpochs(
				(epoch) =>
					runTasks(
						runDeps,
						{
							options: limits.options,
							input: (_d, valve) => dispatch(queue, valve, { ...dispatching, until: epoch.until, freed: reschedules.freed }, stop, claims),
							build: (d) => composeRun(d, job.shape, plan.edges, plan.outbox),
							placesKeepText: true,
							live: epoch.live,
							commit: reschedules.commit,
						},
						epoch.summary,
					).pipe(
						tap((task) => {
							plan.observer?.check?.(task);
							const host = task.origin === undefined ? undefined : runDeps.book.get(task.origin);
							const entry = nextDue(task, claims.mu(task.origin), job.bounds, host, plan.clock.now(), runDeps.random);
							reschedules.checked(claims.ended(task.url), entry);
						}),
					),
				{
					clock: plan.clock,
					epochMs: plan.epochMs,
					minEpochWallMs: plan.minEpochWallMs,
					until: plan.until,
					stop,
					observer: plan.observer,
					settle: () => reschedules.flush(),
				},
			).pipe(finalize(() => ended.next()));
			return merge(epochs, admitted, updates);
		}),
	);
}
