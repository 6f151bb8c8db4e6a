import type { Observable, OperatorFunction } from 'rxjs';
import { EXIT } from '../errors/index.js';
import type { Valve } from '../flow/valve.js';
import type { TransportFactory } from '../http/transport.js';
import { openSweepDeps } from '../pipelines/resources.js';
import { runTasks } from '../pipelines/run.js';
import { createSummary, formatSummary } from '../pipelines/summary.js';
import type { SweepDeps } from '../pipelines/sweep.js';
import type { SweepOptions } from '../pipelines/sweep-options.js';
import { describeChurn } from '../stages/churn-guard.js';
import type { InputLine } from '../stages/read-lines.js';
import { readLines } from '../stages/read-lines.js';
import { storeIsShared } from '../store/open.js';
import type { RedisTimeouts } from '../store/redis-link.js';
import type { ValidatorStore } from '../store/types.js';
import type { EmitTargets } from '../stages/emit.js';
import type { Task } from '../types.js';
import { inputFrom, type CliIo } from './io.js';
import { spool } from './spool.js';
import { createBatchWriter, createTerminal } from './terminal.js';

/** Data output (stdout, whose writes may overlap: `ordered`) and one diagnostic line at a time on stderr: an emit stage's targets. */
export type PipelineOutputs = EmitTargets;

export interface PipelineRun {
	/** URLs from the arguments (none, or `-`, reads stdin), one per line. */
	urls?: readonly string[];
	/** Or the input lines themselves (a pipeline file's sources), given the opened resources and the run's valve. */
	input?(deps: SweepDeps, valve: Valve): Observable<InputLine>;
	store: string | ValidatorStore;
	quiet: boolean;
	options: SweepOptions;
	/**
	 * If another revisit holds the store (the sweep feeding this fetch through a pipe),
	 * spool the input until it ends, then wait for the store, instead of failing. A store
	 * many processes share (Redis) needs neither: the input streams straight in.
	 */
	waitForStore?: boolean;
	/** The stages from input lines to tasks whose output is written: everything but the commit. */
	build(deps: SweepDeps, outputs: PipelineOutputs): OperatorFunction<InputLine, Task>;
	/** Where attempts are sent from (`--local-workers`, `--workers`); this process when absent. */
	transport?: TransportFactory | undefined;
	/** Connect and reconnect limits of a Redis store (`--redis-timeout`). */
	redis?: RedisTimeouts | undefined;
	/** How to let a host the churn guard blocked through, for the diagnostic (default: the --accept-churn flag). */
	acceptChurnHint?(origin: string): string;
}

/**
 * The shared life of a command-line run (sweep, fetch, crawl, run): open the store,
 * run the pipeline (`runTasks`: input with backpressure, stages, commit after output,
 * run-history row), draw progress, stop on a signal, and map the outcome to an exit status.
 *
 * @example
 * result.status = await runPipeline(io, { urls, store, quiet, options, build: (deps, out) => pipe(sweepStages(deps, options), emit(out)) });
 */
export async function runPipeline(io: CliIo, run: PipelineRun): Promise<number> {
	const terminal = createTerminal(io.stderr, { quiet: run.quiet });
	let lines: AsyncIterable<Buffer | string> = inputFrom(run.urls ?? [], io.stdin);
	const waitForStore = run.waitForStore === true && !run.input && !(typeof run.store === 'string' && storeIsShared(run.store));
	// A fetch fed by `revisit sweep | revisit fetch` must not take the store before the sweep
	// does: wait for the first line, by which time the sweep holds it (and we spool instead).
	if (waitForStore) lines = await afterFirst(lines);
	let input = run.input ?? ((_deps: SweepDeps, valve: Valve) => readLines(lines, valve));
	let opened: Awaited<ReturnType<typeof openSweepDeps>>;
	try {
		opened = await openSweepDeps({ store: run.store, transport: run.transport, redis: run.redis }, run.options);
	} catch (error) {
		if (!waitForStore || (error as { code?: string }).code !== 'STORE_LOCKED') throw error;
		const spooled = await spool(lines);
		input = (_deps, valve) => readLines(spooled, valve);
		opened = await openWhenFree(() => openSweepDeps({ store: run.store, transport: run.transport, redis: run.redis }, run.options));
	}
	const { deps, close } = opened;
	const summary = createSummary();
	summary.sentBy = deps.transport?.label;
	const started = deps.clock.now();
	const hint = run.acceptChurnHint ?? ((origin: string) => `rerun with --accept-churn ${origin}`);
	terminal.progress(() => formatSummary({ ...summary, elapsedMs: deps.clock.now() - started }));

	const outputs = { out: createBatchWriter(io.stdout), ordered: true, diagnose: terminal.diagnose };
	const run$ = runTasks(deps, {
		options: run.options,
		input,
		build: (opened) => run.build(opened, outputs),
		onBlocked: (origin, changed, probed, sample) =>
			terminal.diagnose(`${describeChurn(origin, { changed, probed, sample })}: changes held back (churn guard); check the site, then ${hint(origin)}`),
	}, summary);
	try {
		const stopped = await new Promise<string | undefined>((resolve, reject) => {
			const subscription = run$.subscribe({ error: reject, complete: () => resolve(undefined) });
			void io.interrupted.then((signal) => {
				subscription.unsubscribe();
				resolve(signal);
			});
		});
		if (stopped) {
			terminal.finish(`stopped by ${stopped}; changes not yet printed will be reported again next run`);
			return EXIT.interrupted;
		}
	} finally {
		await close();
	}
	terminal.finish(formatSummary(summary));
	if (summary.blockedHosts.length > 0) return EXIT.churnBlocked;
	return summary.errors > 0 || summary.rejected > 0 ? EXIT.someFailed : EXIT.ok;
}

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

/** Resolves once `input` has produced its first chunk (or ended), with an iterable of all of it. */
async function afterFirst(input: AsyncIterable<Buffer | string>): Promise<AsyncIterable<Buffer | string>> {
	const iterator = input[Symbol.asyncIterator]();
	const first = await iterator.next();
	return (async function* () {
		if (first.done) return;
		yield first.value;
		for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
	})();
}
