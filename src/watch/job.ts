import { Observable, Subject } from 'rxjs';
import { checkStart, type RunShape } from '../pipelines/compose.js';
import type { JobEdges } from '../pipelines/job.js';
import { openSweepDeps } from '../pipelines/resources.js';
import { createSummary, type Summary } from '../pipelines/summary.js';
import type { IntervalBounds } from '../schedule/due-time.js';
import type { RedisTimeouts } from '../store/redis-link.js';
import type { ValidatorStore } from '../store/types.js';
import type { InputBatch } from './inputs.js';
import type { SweepDeps } from '../pipelines/sweep.js';
import { clockOf, watchClock } from './clock.js';
import { watchTasks, type WatchObserver } from './run.js';
import type { Clock } from '../types.js';
import { writeReports } from '../history/report-html.js';
import { describeStore, storeIsShared } from '../store/open.js';
import { openOutbox, type Outbox } from '../outbox/open.js';
import type { TargetStatus } from '../outbox/worker.js';

/** A watch as plain data: the run it repeats, its store, rate, clock and inputs. */
export interface WatchJob {
	shape: RunShape;
	store: string | ValidatorStore;
	redis?: RedisTimeouts | undefined;
	/** Checks a day over every origin, in the schedule's clock (`--rate`). */
	checksPerDay: number;
	bounds: IntervalBounds;
	/** The schedule's clock: where it starts (`--now`) and how much faster than the wall clock it runs (`--time-scale`). */
	now?: number | undefined;
	scale: number;
	until?: { at: number } | { afterMs: number } | undefined;
	/** Least wall ms between two requests to an origin (`--host-rate`). */
	hostGapMs?: number | undefined;
	/** How long a claimed URL is held (wall ms, `--lease`) before it returns to the schedule, for the others on a shared store. */
	leaseMs?: number | undefined;
	/** Where URLs come from, given the job's clock: see inputs.ts. */
	inputs(context: { deps: SweepDeps; clock: Clock; wallMs(scheduleMs: number): number; diagnose(message: string): void }): Observable<InputBatch>;
	/** Report pages (a pipeline file's `report` sinks), written again after each epoch. */
	reports?: ReadonlyArray<{ path: string; runs: number }> | undefined;
	/** The metrics and the listening server, started once the store is open (`--listen`). */
	observe?(context: { store: ValidatorStore; summary: Readonly<Summary>; scale: number; deliveries?: (() => TargetStatus[]) | undefined }): Promise<{ observer: WatchObserver; close(): Promise<void> }>;
}

/** A watch under way: its counts so far, and its end. */
export interface WatchRun {
	summary: Readonly<Summary>;
	/** Resolves to the signal that stopped it, or undefined at `--until` or when there is nothing left to watch; rejects on an infrastructure failure. */
	done: Promise<string | undefined>;
}

/** An epoch of the schedule's clock: an hour, and at least half a minute of wall time. */
const EPOCH_MS = 3_600_000;
const MIN_EPOCH_WALL_MS = 30_000;

/**
 * Runs a watch until `stop` resolves (SIGTERM, SIGINT) or its clock reaches `until`: opens
 * the store, runs `watchTasks`, and closes what it opened. A stop lets the checks in
 * flight finish and be committed first.
 *
 * @example
 * const { done } = runWatch(job, edges, interrupted);
 * await done; // 'SIGTERM'
 */
export function runWatch(job: WatchJob, edges: JobEdges, stop: Promise<string>): WatchRun {
	const summary = createSummary();
	return { summary, done: run(job, edges, summary, stop) };
}

async function run(job: WatchJob, edges: JobEdges, summary: Summary, stop: Promise<string>): Promise<string | undefined> {
	await checkStart(job.shape);
	const { deps, close } = await openSweepDeps({ store: job.store, redis: job.redis }, job.shape.options);
	// The schedule's clock is the store's: a restart, and every member of a fleet, read one clock (--now starts it again).
	const proposed = watchClock({ now: job.now, scale: job.scale }).queue;
	const opening = async () => {
		const queue = await deps.store.dueQueue(proposed);
		return { queue, clock: clockOf(await queue.adoptClock(proposed, job.now !== undefined)) };
	};
	const { queue, clock } = await opening().catch(async (error: unknown) => {
		await close();
		throw error;
	});
	const started = clock.now();
	const until = job.until === undefined ? undefined : 'at' in job.until ? job.until.at : started + job.until.afterMs;
	let observing: Awaited<ReturnType<NonNullable<WatchJob['observe']>>> | undefined;
	let signal: string | undefined;
	const stopping = new Subject<void>();
	const reports = job.reports ?? [];
	const source = typeof job.store === 'string' ? describeStore(job.store) : 'the store given';
	// One page write at a time, each after its epoch's run row; the last is awaited before the store closes.
	let reporting = Promise.resolve();
	void stop.then((name) => {
		signal = name;
		stopping.next();
	});
	// Deliveries go on beside the checks, for as long as --delivery-max-age: a target that is down never stops the watch.
	let outbox: Outbox | undefined;
	try {
		outbox = openOutbox(deps.store, job.shape.feeds, { diagnose: edges.diagnose, shared: typeof job.store === 'string' && storeIsShared(job.store) });
		observing = await job.observe?.({ store: deps.store, summary, scale: job.scale, deliveries: outbox && (() => outbox!.deliveries.status()) });
		const watch$ = watchTasks(deps, {
			shape: job.shape,
			edges,
			checksPerDay: job.checksPerDay,
			bounds: job.bounds,
			clock,
			queue,
			until,
			epochMs: EPOCH_MS,
			minEpochWallMs: MIN_EPOCH_WALL_MS,
			inputs: job.inputs({ deps: { ...deps, clock }, clock, wallMs: clock.wallMs, diagnose: edges.diagnose }),
			stop: stopping,
			hostGapMs: job.hostGapMs,
			leaseWallMs: job.leaseMs,
			outbox,
			observer: {
				...observing?.observer,
				epoch: (epoch) => {
					addSummary(summary, epoch);
					observing?.observer.epoch?.(epoch);
					if (reports.length > 0) reporting = reporting.then(() => writeReports(deps.store, reports, source)).catch((error: unknown) => edges.diagnose(`report: ${(error as Error).message}`));
				},
			},
		});
		await new Promise<void>((resolve, reject) => {
			const subscription = watch$.subscribe({ error: reject, complete: resolve });
			// Only the store failing under the worker ends a watch (a target never does: it is retried).
			outbox?.deliveries.failed.catch((error: unknown) => {
				subscription.unsubscribe();
				reject(error);
			});
		});
		return signal;
	} finally {
		await outbox?.deliveries.stop();
		for (const target of outbox?.deliveries.status() ?? []) if (target.pending > 0) edges.diagnose(`${target.shown}: ${target.pending} deliver${target.pending === 1 ? 'y' : 'ies'} pending, kept in the store for the next watch or run with this target`);
		await reporting;
		await observing?.close();
		await close();
	}
}

/** Adds an epoch's counts to the watch's. */
function addSummary(total: Summary, epoch: Summary): void {
	for (const key of Object.keys(epoch) as Array<keyof Summary>) {
		const value = epoch[key];
		if (typeof value === 'number' && key !== 'elapsedMs') (total[key] as number) += value;
	}
	total.blockedHosts.push(...epoch.blockedHosts);
}
