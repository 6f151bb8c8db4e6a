import { tap, type OperatorFunction } from 'rxjs';
import { EXIT } from '../errors/index.js';
import { createValve } from '../flow/valve.js';
import { openSweepDeps } from '../pipelines/resources.js';
import { countTask, createSummary, formatSummary, runRecord } from '../pipelines/summary.js';
import type { SweepDeps } from '../pipelines/sweep.js';
import type { SweepOptions } from '../pipelines/sweep-options.js';
import { commit } from '../stages/commit.js';
import type { InputLine } from '../stages/read-lines.js';
import { readLines } from '../stages/read-lines.js';
import { runKey } from '../store/run-key.js';
import type { Task } from '../types.js';
import { inputFrom, type CliIo } from './io.js';
import { spool } from './spool.js';
import { createTerminal, createWriter } from './terminal.js';

export interface PipelineOutputs {
	/** Data output (stdout); resolves once written. */
	out(text: string): Promise<void>;
	/** One diagnostic line on stderr. */
	diagnose(text: string): void;
}

export interface PipelineRun {
	urls: readonly string[];
	store: string;
	quiet: boolean;
	options: SweepOptions;
	/**
	 * If another revisit holds the store (the sweep feeding this fetch through a pipe),
	 * spool the input until it ends, then wait for the store, instead of failing.
	 */
	waitForStore?: boolean;
	/** The stages from input lines to tasks whose output is written: everything but the commit. */
	build(deps: SweepDeps, outputs: PipelineOutputs): OperatorFunction<InputLine, Task>;
}

/**
 * The shared life of a command-line run (sweep, fetch, crawl): open the store, read
 * lines with backpressure, run the stages, commit after output, draw progress, write
 * the run-history row, and map the outcome to an exit status.
 *
 * @example
 * result.status = await runPipeline(io, { urls, store, quiet, options, build: (deps, out) => pipe(sweepStages(deps, options), emit(out)) });
 */
export async function runPipeline(io: CliIo, run: PipelineRun): Promise<number> {
	const terminal = createTerminal(io.stderr, { quiet: run.quiet });
	let input = inputFrom(run.urls, io.stdin);
	let opened: Awaited<ReturnType<typeof openSweepDeps>>;
	try {
		opened = await openSweepDeps({ store: run.store }, run.options);
	} catch (error) {
		if (!run.waitForStore || (error as { code?: string }).code !== 'STORE_LOCKED') throw error;
		input = await spool(input);
		opened = await openWhenFree(() => openSweepDeps({ store: run.store }, run.options));
	}
	const { deps, close } = opened;
	const summary = createSummary();
	const started = deps.clock.now();
	const valve = createValve(run.options.highWater);
	deps.hooks = {
		release: () => valve.release(),
		onBlocked: (origin, changed, probed) => {
			summary.blockedHosts.push(origin);
			terminal.diagnose(`${origin}: ${changed} of its first ${probed} known URLs changed: changes held back (churn guard); check the site, then rerun with --accept-churn ${origin}`);
		},
	};
	terminal.progress(() => formatSummary({ ...summary, elapsedMs: deps.clock.now() - started }));

	const run$ = readLines(input, valve).pipe(
		run.build(deps, { out: createWriter(io.stdout), diagnose: terminal.diagnose }),
		commit(deps.store, { extra: deps.book.drain }),
		tap((task) => {
			if (!task.creditReturned) valve.release();
			countTask(summary, task);
		}),
	);
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
		summary.elapsedMs = deps.clock.now() - started;
		await deps.store.batch([{ type: 'putRun', key: runKey(started), value: runRecord(summary, started, deps.clock.now()) }]);
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
