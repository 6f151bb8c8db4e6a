import { concat, concatMap, defer, EMPTY, finalize, ignoreElements, merge, type Observable, of, repeat, share, Subject, switchMap, takeUntil, tap } from 'rxjs';
import { composeRun, type RunEdges } from '../pipelines/compose.js';
import type { WatchJob } from './job.js';
import type { Outbox } from '../io/outbox/open.js';
import { runTasks } from '../pipelines/run.js';
import type { LiveRun } from '../pipelines/live-run.js';
import { createSummary, type Summary } from '../pipelines/summary.js';
import type { SweepDeps } from '../pipelines/sweep.js';
import type { DueEntry, DueQueue, QueueStats } from '../store/model/due.js';
import type { WatchClock } from './clock.js';
import type { Task } from '../domain/task/types.js';
import { admit } from './admit.js';
import { gapsToQueue, setGaps } from './gaps.js';
import { announced } from './announced.js';
import type { InputBatch } from './inputs.js';
import { dispatch } from './dispatch.js';
import { nextDue } from './reschedule.js';
import { createThreshold } from './threshold.js';
import { thresholdUpdates } from './updates.js';
import { createHostThresholds } from './host-threshold.js';
import { withTurns } from './turns.js';
import { createSayings } from './say.js';
import { createAnsweredBatch, createDoneBatch } from './claim-ends.js';

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
 * Claims held per origin, as a multiple of --per-host, on a schedule one process holds:
 * the run's limiter keeps --per-host requests in flight, and the claims beyond them wait
 * in the pipeline (its store read, robots.txt), so that an origin's next request is ready
 * when one ends. On a shared schedule (Redis) the claims are the fleet-wide limit: 1, each
 * counted until its requests are over (`DueQueue.answered`); a process then holds up to
 * this many times --concurrency claims, those past its requests in flight being written.
 */
const CLAIMS_PER_PLACE = 2;
/** Least wall ms between two writes of an epoch's row as it goes, and of its changed URLs (live-run.ts): a kill loses a second of the row. */
const LIVE_ROW_WALL_MS = 1000;
const LIVE_DETAIL_WALL_MS = 60_000;
/** Longest a verdict's record waits for its batch (wall ms): its URL's claim ends only after. */
const COMMIT_WAIT_MS = 10;

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
			let stopped = false;
			const stopping = stop.pipe(
				tap(() => (stopped = true)),
				ignoreElements(),
			);
			// Admission and the threshold's updates go on until the epochs end: by a stop, or at --until.
			const ended = new Subject<void>();
			const over = merge(stop, ended);
			const threshold = createThreshold(queue, { checksPerDay: options.checksPerDay, bounds: job.bounds, now: () => plan.clock.now() });
			const say = createSayings({ diagnose: plan.edges.diagnose, checksPerDay: options.checksPerDay, bounds: job.bounds });
			const freed = new Subject<void>();
			const done = createDoneBatch(queue, () => freed.next());
			const answered = createAnsweredBatch(queue, () => freed.next());
			// Reschedules waiting for their records' batch (`awaiting`), and those of each batch taken and not yet written (`stored`;
			// `taken` once written with the records, where the schedule is in the store's own database).
			const awaiting: DueEntry[] = [];
			const stored: Array<{ entries: DueEntry[]; taken: boolean }> = [];
			const hosts = createHostThresholds();
			// Each claimed URL's claim token, until its reschedule takes it back to the schedule's `done`.
			const tokens = new Map<string, string>();
			const scale = plan.clock.wallMs(1);
			// Origins spaced by a gap (--host-rate, Crawl-delay): where politeness binds, so where an origin's own threshold may rise.
			const spaced = new Set<string>();
			const runDeps: SweepDeps = {
				...deps,
				clock: plan.clock,
				limiter: withTurns(gapsToQueue(deps, queue, 1 / scale, job.hostGapMs, spaced), queue, job.hostGapMs),
			};
			const updates = thresholdUpdates(threshold, say, { clock: plan.clock, observer: plan.observer, checksPerDay: options.checksPerDay }).pipe(
				takeUntil(over),
			);
			// Origins given their --host-rate gap: one call each, the first time they are seen.
			const gapped = new Set<string>();
			const admitted = plan.inputs.pipe(
				concatMap(async (batch) => {
					if (batch.settled) {
						const stats = await queue.stats();
						plan.observer?.queue?.(stats);
						return say.settled(stats);
					}
					// The gap first: a URL put due now is claimed at once, by this process or
					// another on the store, and its origin's second claim must already wait for it.
					if (job.hostGapMs !== undefined) await setGaps(queue, batch, gapped, job.hostGapMs / scale);
					const result = await admit(queue, batch, { now: plan.clock.now() });
					await announced(batch, { store: runDeps.store, book: runDeps.book, queue, now: plan.clock.now() });
					for (const problem of result.problems) plan.edges.diagnose(`${problem.source} line ${problem.line}: ${problem.problem}`);
					say.admitted(batch, result);
				}),
				ignoreElements(),
				takeUntil(over),
			);
			// On a shared schedule a process holds no more claims than it has requests in flight, and as many again being written (their
			// places given back, `answered`): the fleet-wide --per-host places go to whoever can use them, not to the first to claim.
			const window = queue.shared
				? { ...job.shape.options, highWater: job.shape.options.concurrency * (queue.answered ? CLAIMS_PER_PLACE : 1) }
				: job.shape.options;
			const reachedUntil = (): boolean => plan.until !== undefined && plan.clock.now() >= plan.until;
			const epoch = defer(() => {
				const summary = createSummary();
				const end = plan.clock.now() + Math.max(plan.epochMs, plan.minEpochWallMs / scale);
				const until = Math.min(end, plan.until ?? Infinity);
				return concat(
					runTasks(
						runDeps,
						{
							options: window,
							input: (_d, valve) =>
								dispatch(
									queue,
									valve,
									{
										rate: options.checksPerDay / 86_400_000,
										perHost: job.shape.options.perHost * (queue.shared ? 1 : CLAIMS_PER_PLACE),
										leaseMs: options.leaseMs / scale,
										wallMs: plan.clock.wallMs,
										until,
										freed,
									},
									stop,
									{
										claimed: (entry, now) => {
											if (entry.token !== undefined) tokens.set(entry.url, entry.token);
											threshold.dispatched(1, entry.due - now);
											say.claimed();
											// Lateness anywhere else is the global rate's, which μ answers for.
											if (job.hostGapMs !== undefined || spaced.has(entry.origin)) hosts.claimed(entry.origin, now - entry.due);
											plan.observer?.late?.(Math.max(0, now - entry.due) / 1000);
										},
									},
								),
							build: (d) => composeRun(d, job.shape, plan.edges, plan.outbox),
							placesKeepText: true,
							// The hour's row is stored as it goes and shown live: a watch killed with -9 leaves its hours in history.
							live: { rowEveryMs: LIVE_ROW_WALL_MS, detailEveryMs: LIVE_DETAIL_WALL_MS, started: (run) => plan.observer?.started?.(run) },
							// A URL is rescheduled only once its record is stored: a kill in between checks it again soon, never leaves it scheduled without its record.
							// Batches a few ms apart: an origin's claims end only once their records are written.
							// Where the schedule can (LevelDB), the reschedules go in the records' own write: one write, and a kill leaves both or neither.
							commit: {
								flushing: () => stored.push({ entries: awaiting.splice(0), taken: false }),
								// Batches are written one after another, each after its `flushing`: the first not yet written is this one.
								write:
									queue.doneWith &&
									((operations) => {
										const batch = stored[0]!;
										batch.taken = true;
										return queue.doneWith!(batch.entries, operations);
									}),
								written: () => {
									const batch = stored.shift();
									if (batch?.taken) freed.next();
									else done.addAll(batch?.entries ?? []);
								},
								maxWaitMs: COMMIT_WAIT_MS,
							},
						},
						summary,
					).pipe(
						tap((task) => {
							plan.observer?.check?.(task);
							const host = task.origin === undefined ? undefined : runDeps.book.get(task.origin);
							const mu = threshold.mu * (task.origin === undefined ? 1 : hosts.factor(task.origin));
							const entry = nextDue(task, mu, job.bounds, host, plan.clock.now(), runDeps.random);
							if (task.url !== undefined) {
								const token = tokens.get(task.url);
								tokens.delete(task.url);
								if (entry && token !== undefined) entry.token = token;
								// Its requests are over: on a shared schedule its origin's place goes back to the fleet now, not after its record is written.
								if (token !== undefined) answered.addAll([{ url: task.url, token }]);
							}
							if (entry) awaiting.push(entry);
						}),
					),
					defer(async () => {
						await answered.flush();
						await done.flush();
						plan.observer?.epoch?.(summary);
					}).pipe(ignoreElements()),
				);
			}).pipe(
				repeat({ delay: () => (stopped || reachedUntil() ? EMPTY : of(0)) }),
				finalize(() => ended.next()),
			);
			return merge(epoch, admitted, updates, stopping.pipe(takeUntil(ended)));
		}),
	);
}
