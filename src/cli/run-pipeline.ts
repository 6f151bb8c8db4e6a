import { EXIT } from '../errors/index.js';
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
 * stopping signal for the caller to finish with.
 *
 * @example
 * const { summary, stopped, terminal } = await runOnTerminal(io, { quiet }, (edges) => runWatch(job, edges, io.interrupted));
 */
export async function runOnTerminal(
	io: CliIo,
	display: { quiet: boolean; env?: NodeJS.ProcessEnv },
	start: (edges: JobEdges) => { summary: Readonly<Summary>; done: Promise<string | undefined> },
): Promise<{ summary: Readonly<Summary>; stopped: string | undefined; terminal: ReturnType<typeof createTerminal>; elapsedMs: number }> {
	const terminal = createTerminal(io.stderr, { quiet: display.quiet });
	const edges = { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, env: display.env ?? io.env, out: createBatchWriter(io.stdout), ordered: true, diagnose: terminal.diagnose };
	const started = Date.now();
	const { summary, done } = start(edges);
	terminal.progress(() => formatSummary({ ...summary, elapsedMs: Date.now() - started }));
	try {
		const stopped = await done;
		return { summary, stopped, terminal, elapsedMs: Date.now() - started };
	} catch (error) {
		terminal.stop();
		throw error;
	}
}
