import { EXIT } from '../base/errors/index.js';
import { runJob, type Job, type JobEdges } from '../pipelines/job.js';
import { formatSummary, someFailed, type Summary } from '../pipelines/summary.js';
import type { CliIo } from './io.js';
import { createBatchWriter, createTerminal } from './terminal.js';

/**
 * A command's run on the terminal: hands the job to the pipeline layer (`runJob`: the
 * store, the stages, the commit), draws progress on a TTY, stops on a signal, and maps
 * the outcome to an exit status.
 *
 * @example
 * result.status = await runPipeline(io, { phase: 'sweep', options, store, urls, emit: { format: 'lines' } }, { quiet: false });
 */
export async function runPipeline(io: CliIo, job: Job, display: { quiet: boolean; env?: NodeJS.ProcessEnv }): Promise<number> {
	const { summary, stopped, terminal } = await runOnTerminal(io, display, (edges) => runJob(job, edges, io.interrupted));
	if (stopped) {
		terminal.finish(`stopped by ${stopped}; changes not yet printed will be reported again next run`);
		return EXIT.interrupted;
	}
	terminal.finish(formatSummary(summary));
	if (summary.blockedHosts.length > 0) return EXIT.churnBlocked;
	return someFailed(summary) ? EXIT.someFailed : EXIT.ok;
}

/**
 * A run or a watch on the terminal, up to its end: the process edges (stdout through a
 * batch writer, diagnostics through the terminal), progress on a TTY, and the summary and
 * stopping signal for the caller to finish with. `progress` draws the progress line (and,
 * with `display.statusEveryMs`, the status line written where there is no TTY); the
 * summary's counts by default.
 *
 * @example
 * const { summary, stopped, terminal } = await runOnTerminal(io, { quiet }, (edges) => runWatch(job, edges, io.interrupted));
 */
export async function runOnTerminal<Run extends { summary: Readonly<Summary>; done: Promise<string | undefined> }>(
	io: CliIo,
	display: { quiet: boolean; env?: NodeJS.ProcessEnv; statusEveryMs?: number | undefined },
	start: (edges: JobEdges) => Run,
	progress: (run: Run, elapsedMs: number) => string = (run, elapsedMs) => formatSummary({ ...run.summary, elapsedMs }),
): Promise<{ run: Run; summary: Readonly<Summary>; stopped: string | undefined; terminal: ReturnType<typeof createTerminal>; elapsedMs: number }> {
	const terminal = createTerminal(io.stderr, { quiet: display.quiet });
	const edges = {
		stdin: io.stdin,
		stdout: io.stdout,
		stderr: io.stderr,
		env: display.env ?? io.env,
		out: createBatchWriter(io.stdout),
		ordered: true,
		diagnose: terminal.diagnose,
	};
	const started = Date.now();
	const run = start(edges);
	const { summary, done } = run;
	const render = () => progress(run, Date.now() - started);
	terminal.progress(render);
	if (display.statusEveryMs !== undefined) terminal.status(render, display.statusEveryMs);
	try {
		const stopped = await done;
		return { run, summary, stopped, terminal, elapsedMs: Date.now() - started };
	} catch (error) {
		terminal.stop();
		throw error;
	}
}
