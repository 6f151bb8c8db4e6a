import type { Readable } from 'node:stream';
import type { Valve } from '../base/flow/valve.js';
import type { TransportFactory } from '../net/http/transport.js';
import { argsInput } from '../io/sources/args.js';
import type { Source } from '../io/sources/source.js';
import { afterFirst, spool } from '../io/sources/spool.js';
import { describeChurn } from '../stages/churn-guard.js';
import { readLines } from '../io/sources/read-lines.js';
import { writeReports } from '../io/report/write.js';
import { describeStore, storeIsShared } from '../store/open.js';
import type { RedisTimeouts } from '../store/redis/link.js';
import type { ValidatorStore } from '../store/model/types.js';
import { checkStart, composeRun, type RunEdges, type RunShape } from './compose.js';
import { openOutbox } from '../io/outbox/open.js';
import { openSweepDeps } from './resources.js';
import { runTasks } from './run.js';
import { createSummary, type Summary } from './summary.js';
import type { SweepDeps } from './sweep.js';

/** A whole run as plain data: its shape, where its URLs come from, and the store and transport it uses. */
export interface Job extends RunShape {
	store: string | ValidatorStore;
	/** URLs from the command line; none, or `-`, reads stdin, one per line. */
	urls?: readonly string[] | undefined;
	/** Or a pipeline file's sources, in order. */
	source?: Source | undefined;
	/** Where attempts are sent from (`--workers`); this process, or `options.localWorkers` threads, when absent. */
	transport?: TransportFactory | undefined;
	/** Connect and reconnect limits of a Redis store (`--redis-timeout`). */
	redis?: RedisTimeouts | undefined;
	/**
	 * If another revisit holds the store (the sweep feeding this fetch through a pipe),
	 * spool the input until it ends, then wait for the store, instead of failing. A store
	 * many processes share (Redis) needs neither: the input streams straight in.
	 */
	waitForStore?: boolean | undefined;
	/** How a blocked host's diagnostic says to let it through: the `--accept-churn` flag, or the pipeline file's churn-guard stage. */
	churnHint?: 'flag' | 'stage' | undefined;
}

/** The process edges of a run: stdin for its URLs, and where its stages write. */
export interface JobEdges extends RunEdges {
	stdin: Readable | AsyncIterable<Buffer | string>;
}

/** A job under way: its counts so far (read them for progress), and its end. */
export interface JobRun {
	summary: Readonly<Summary>;
	/** Resolves to the signal that stopped the run, or undefined when its input was done; rejects on an infrastructure failure. */
	done: Promise<string | undefined>;
}

/**
 * Runs a job from its input to its last commit: opens the store (waiting for it, with the
 * input spooled, when asked), runs the composed stages through `runTasks`, stops when
 * `stop` resolves, and closes what it opened. Nothing it is given is changed.
 *
 * @example
 * const { summary, done } = runJob({ phase: 'sweep', options: normaliseSweepOptions(), store: '.revisit', emit: { format: 'lines' } }, edges, interrupted);
 * const stopped = await done;
 */
export function runJob(job: Job, edges: JobEdges, stop: Promise<string>): JobRun {
	const summary = createSummary();
	return { summary, done: run(job, edges, summary, stop) };
}

async function run(job: Job, edges: JobEdges, summary: Summary, stop: Promise<string>): Promise<string | undefined> {
	await checkStart(job);
	const opening = { store: job.store, transport: job.transport, redis: job.redis, diagnose: edges.diagnose };
	let lines: AsyncIterable<Buffer | string> = argsInput(job.urls ?? [], edges.stdin);
	const waitForStore = job.waitForStore === true && !job.source && !(typeof job.store === 'string' && storeIsShared(job.store));
	if (waitForStore) lines = await afterFirst(lines);
	let input = job.source
		? (deps: SweepDeps, valve: Valve) => job.source!({ deps, retry: job.options, valve, stdin: edges.stdin, stderr: edges.stderr, env: edges.env })
		: (_deps: SweepDeps, valve: Valve) => readLines(lines, valve);
	let opened: Awaited<ReturnType<typeof openSweepDeps>>;
	try {
		opened = await openSweepDeps(opening, job.options);
	} catch (error) {
		if (!waitForStore || (error as { code?: string }).code !== 'STORE_LOCKED') throw error;
		const spooled = await spool(lines);
		input = (_deps, valve) => readLines(spooled, valve);
		opened = await openWhenFree(() => openSweepDeps(opening, job.options));
	}
	const { deps, close } = opened;
	summary.sentBy = deps.transport?.label;
	// A change is committed with its deliveries; a target that keeps failing ends the run (exit 1), and the next run with it delivers what is left.
	let outbox: ReturnType<typeof openOutbox>;
	try {
		outbox = openOutbox(deps.store, job.feeds, {
			attempts: SWEEP_ATTEMPTS,
			backoff: SWEEP_BACKOFF,
			diagnose: edges.diagnose,
			shared: typeof job.store === 'string' && storeIsShared(job.store),
		});
	} catch (error) {
		await close();
		throw error;
	}
	const hint =
		job.churnHint === 'stage'
			? (origin: string) => `add it to the churn-guard stage's acceptChurn (--set 'acceptChurn=["${origin}"]')`
			: (origin: string) => `rerun with --accept-churn ${origin}`;
	const run$ = runTasks(
		deps,
		{
			options: job.options,
			input,
			build: (runDeps) => composeRun(runDeps, job, edges, outbox),
			placesKeepText: true,
			afterRun: job.reports?.length
				? (store) => writeReports(store, job.reports!, typeof job.store === 'string' ? describeStore(job.store) : 'the store given')
				: undefined,
			onBlocked: (origin, decision) =>
				edges.diagnose(`${describeChurn(origin, decision)}: changes held back (churn guard); check the site, then ${hint(origin)}`),
		},
		summary,
	);
	try {
		return await new Promise<string | undefined>((resolve, reject) => {
			const subscription = run$.subscribe({
				error: reject,
				complete: () => void (outbox?.deliveries.drain() ?? Promise.resolve()).then(() => resolve(undefined), reject),
			});
			outbox?.deliveries.failed.catch((error: unknown) => {
				subscription.unsubscribe();
				reject(error);
			});
			void stop.then((signal) => {
				subscription.unsubscribe();
				resolve(signal);
			});
		});
	} finally {
		await outbox?.deliveries.stop();
		await close();
	}
}

/** A sweep's deliveries: four attempts, half a second, then one and two seconds apart, before the run fails. */
const SWEEP_ATTEMPTS = 4;
const SWEEP_BACKOFF = { firstMs: 500, capMs: 2_000 };

/** Retries an open that failed on a lock for up to `waitMs`: the holder is about to exit. */
async function openWhenFree<T>(open: () => Promise<T>, waitMs = 30_000): Promise<T> {
	const deadline = Date.now() + waitMs;
	for (;;) {
		try {
			return await open();
		} catch (error) {
			if ((error as { code?: string }).code !== 'STORE_LOCKED' || Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
}
