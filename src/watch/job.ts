import { type Observable, Subject } from 'rxjs';
import { checkStart, type WatchShape } from '../pipelines/compose.js';
import type { JobEdges } from '../pipelines/job.js';
import { openSweepDeps } from '../pipelines/resources.js';
import { createSummary, type Summary } from '../pipelines/summary.js';
import type { IntervalBounds } from '../domain/schedule/due-time.js';
import type { RedisTimeouts } from '../store/redis/link.js';
import type { StoreReader, ValidatorStore } from '../store/model/types.js';
import type { InputBatch, WatchInputsSpec } from './inputs.js';
import type { SweepDeps } from '../pipelines/sweep.js';
import { clockOf, watchClock } from './clock.js';
import { watchTasks, type WatchObserver } from './run.js';
import type { Clock } from '../domain/task/clock.js';
import { writeReports } from '../io/report/write.js';
import { describeStore, storeIsShared } from '../store/open.js';
import { bothObservers, createWatchFigures, createWatchStatus, type WatchFigures } from './status.js';
import { serveStore, type OverrideHosts, type StoreServer } from '../store/socket/serve.js';
import type { LiveRun } from '../pipelines/live-run.js';
import { withLiveRun } from './live-store.js';
import { openOutbox, type Outbox } from '../io/outbox/open.js';
import type { TargetStatus } from '../io/outbox/worker.js';

/**
 * Most origins the watch keeps a socket per --per-host place for: past them, idle sockets are closed as others open (each closes after IDLE_SOCKET_MS anyway).
 */
const SOCKET_ORIGINS = 1024;

/**
 * A watch as plain data: the run it repeats under the watch's options (`shape.options`:
 * its rate, clock, lease, listening server, and the parts it shares with a sweep), its
 * store and inputs, and what `buildWatch` (build.ts) works out of them once.
 */
export interface WatchJob {
	shape: WatchShape;
	store: string | ValidatorStore;
	redis?: RedisTimeouts | undefined;
	/**
	 * Where URLs come from (inputs.ts): the URL arguments, stdin (whether to read it), files read again when they change, sitemaps read every `sitemapEveryMs`.
	 */
	inputs: Omit<WatchInputsSpec, 'stdin'> & { stdin: boolean };
	/** Least wall ms between two requests to an origin (`--host-rate`); unset: none. */
	hostGapMs?: number | undefined;
	/** A URL's interval at least, at most, and while its rate is learnt (`--min-interval`, `--max-interval`). */
	bounds: IntervalBounds;
}

/** What the process gives a watch beside its job: its inputs' edges (stdin, SIGHUP) and its listening server. */
export interface WatchEdges {
	/** Where URLs come from, given the job's clock: see inputs.ts. */
	inputs(context: { deps: SweepDeps; clock: Clock; wallMs(scheduleMs: number): number; diagnose(message: string): void }): Observable<InputBatch>;
	/** The metrics and the listening server, started once the store is open (`--listen`). */
	observe?(context: {
		store: StoreReader;
		summary: Readonly<Summary>;
		scale: number;
		deliveries?: (() => TargetStatus[]) | undefined;
	}): Promise<{ observer: WatchObserver; close(): Promise<void> }>;
}

/** A watch under way: its counts so far, and its end. */
export interface WatchRun {
	summary: Readonly<Summary>;
	/** Its checks as they are judged, and its schedule as last read: the progress line's and status line's figures (watch/status.ts). */
	figures: Readonly<WatchFigures>;
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
 * const { done } = runWatch(job, { inputs }, edges, interrupted);
 * await done; // 'SIGTERM'
 */
export function runWatch(job: WatchJob, attached: WatchEdges, edges: JobEdges, stop: Promise<string>): WatchRun {
	const summary = createSummary();
	const figures = createWatchFigures();
	return { summary, figures, done: run(job, attached, edges, summary, figures, stop) };
}

async function run(
	job: WatchJob,
	attached: WatchEdges,
	edges: JobEdges,
	summary: Summary,
	figures: WatchFigures,
	stop: Promise<string>,
): Promise<string | undefined> {
	const options = job.shape.options;
	await checkStart(job.shape);
	const { deps, close, resizeSockets } = await openSweepDeps(
		{ store: job.store, redis: job.redis, maxSockets: socketsFor(job.shape.options, 0), diagnose: edges.diagnose },
		job.shape.options,
	);
	// The schedule's clock is the store's: a restart, and every member of a fleet, read one clock (--now starts it again).
	const proposed = watchClock({ now: options.now, scale: options.timeScale }).queue;
	const opening = async () => {
		const queue = await deps.store.dueQueue(proposed);
		return { queue, clock: clockOf(await queue.adoptClock(proposed, options.now !== undefined)) };
	};
	const { queue, clock } = await opening().catch(async (error: unknown) => {
		await close();
		throw error;
	});
	const status = createWatchStatus(figures, () => clock.now());
	const started = clock.now();
	const until = options.until === undefined ? undefined : 'at' in options.until ? options.until.at : started + options.until.afterMs;
	let observing: Awaited<ReturnType<NonNullable<WatchEdges['observe']>>> | undefined;
	let signal: string | undefined;
	const stopping = new Subject<void>();
	// Report pages (a pipeline file's `report` sinks), written again after each epoch.
	const reports = job.shape.reports ?? [];
	const source = typeof job.store === 'string' ? describeStore(job.store) : 'the store given';
	// One page write at a time, each after its epoch's run row; the last is awaited before the store closes.
	let reporting = Promise.resolve();
	void stop.then((name) => {
		signal = name;
		stopping.next();
	});
	// Readers see the hour under way as a live row: the page at `/`, and the commands that read through the socket.
	let current: LiveRun | undefined;
	const view = withLiveRun(deps.store, () => current);
	let serving: StoreServer | undefined;
	// Deliveries go on beside the checks, for as long as --delivery-max-age: a target that is down never stops the watch.
	let outbox: Outbox | undefined;
	try {
		serving = await serveReads(job.store, view, overrideHosts(deps), edges);
		outbox = openOutbox(deps.store, job.shape.feeds, { diagnose: edges.diagnose, shared: typeof job.store === 'string' && storeIsShared(job.store) });
		observing = await attached.observe?.({ store: view, summary, scale: options.timeScale, deliveries: outbox && (() => outbox!.deliveries.status()) });
		const watch$ = watchTasks(deps, job, {
			edges,
			clock,
			queue,
			until,
			epochMs: EPOCH_MS,
			minEpochWallMs: MIN_EPOCH_WALL_MS,
			inputs: attached.inputs({ deps: { ...deps, clock }, clock, wallMs: clock.wallMs, diagnose: edges.diagnose }),
			stop: stopping,
			outbox,
			observer: bothObservers(status.observer, {
				...observing?.observer,
				started: (run) => {
					current = run;
				},
				queue: (stats) => {
					resizeSockets(socketsFor(job.shape.options, stats.hosts));
					observing?.observer.queue?.(stats);
				},
				epoch: (epoch) => {
					addSummary(summary, epoch);
					observing?.observer.epoch?.(epoch);
					if (reports.length > 0)
						reporting = reporting
							.then(() => writeReports(deps.store, reports, source))
							.catch((error: unknown) => edges.diagnose(`report: ${(error as Error).message}`));
				},
			}),
		});
		await new Promise<void>((resolve, reject) => {
			const subscription = watch$.subscribe({ error: reject, complete: resolve });
			// Only the store failing under the worker ends a watch (a target never does: it is retried).
			outbox?.deliveries.failed.catch((error: unknown) => {
				subscription.unsubscribe();
				reject(error);
			});
		});
		// The schedule as it is at the end, for the summary's count of URLs watched (the last update may be seconds old).
		status.observer.queue?.(await queue.stats());
		return signal;
	} finally {
		await outbox?.deliveries.stop();
		for (const target of outbox?.deliveries.status() ?? [])
			if (target.pending > 0)
				edges.diagnose(
					`${target.shown}: ${target.pending} deliver${target.pending === 1 ? 'y' : 'ies'} pending, kept in the store for the next watch or run with ` +
						`this target`,
				);
		await reporting;
		await serving?.close();
		await observing?.close();
		await close();
	}
}

/**
 * On a LevelDB store (which the watch holds locked), answers the reads of `revisit history`,
 * `report`, `stats`, `due` and `export` on the store's socket. A socket that cannot be made
 * is said once; the watch goes on without.
 */
async function serveReads(store: WatchJob['store'], view: StoreReader, override: OverrideHosts, edges: JobEdges): Promise<StoreServer | undefined> {
	if (typeof store !== 'string' || storeIsShared(store)) return undefined;
	try {
		return await serveStore(store, view, { override });
	} catch (error) {
		edges.diagnose(`${(error as Error).message}; revisit history and report can read the store once the watch stops`);
		return undefined;
	}
}

/**
 * `revisit hosts set` during a watch: the override goes into the watch's own view of the
 * host (which it writes back with its commits, and which the next check of the host
 * follows), and is stored at once.
 */
function overrideHosts(deps: SweepDeps): OverrideHosts {
	return async (overrides) => {
		await deps.book.load(overrides.map(([origin]) => origin));
		for (const [origin, mode] of overrides) {
			const { override: _old, ...host } = deps.book.get(origin);
			deps.book.set(origin, mode === undefined ? host : { ...host, override: mode });
		}
		await deps.store.batch(overrides.map(([origin]) => ({ type: 'putHost', key: origin, value: deps.book.get(origin) })));
	};
}

/**
 * The watch's keep-alive sockets: one per --per-host place of each origin the schedule
 * holds (up to SOCKET_ORIGINS of them), and never fewer than --concurrency origins' worth;
 * the socket pool keeps them within the descriptors left for sockets. A watch's requests
 * go from origin to origin, and a pool of --concurrency + --per-host closed an idle socket
 * to open one nearly every request; one of --concurrency × --per-host still did, in a
 * fleet process spreading its checks over more origins than --concurrency (bench/WATCH-SPEED.md).
 */
function socketsFor(options: { concurrency: number; perHost: number }, hosts: number): number {
	return options.perHost * Math.max(options.concurrency, Math.min(hosts, SOCKET_ORIGINS));
}

/** Adds an epoch's counts to the watch's. */
function addSummary(total: Summary, epoch: Summary): void {
	for (const key of Object.keys(epoch) as Array<keyof Summary>) {
		const value = epoch[key];
		if (typeof value === 'number' && key !== 'elapsedMs') (total[key] as number) += value;
	}
	total.blockedHosts.push(...epoch.blockedHosts);
}
