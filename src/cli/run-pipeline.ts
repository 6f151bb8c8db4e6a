import { EXIT } from '../errors/index.js';
import { runJob, type Job } from '../pipelines/job.js';
import { formatSummary, someFailed } from '../pipelines/summary.js';
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
	const terminal = createTerminal(io.stderr, { quiet: display.quiet });
	const edges = { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, env: display.env ?? io.env, out: createBatchWriter(io.stdout), ordered: true, diagnose: terminal.diagnose };
	const started = Date.now();
	const { summary, done } = runJob(job, edges, io.interrupted);
	terminal.progress(() => formatSummary({ ...summary, elapsedMs: Date.now() - started }));
	let stopped: string | undefined;
	try {
		stopped = await done;
	} catch (error) {
		terminal.stop();
		throw error;
	}
	if (stopped) {
		terminal.finish(`stopped by ${stopped}; changes not yet printed will be reported again next run`);
		return EXIT.interrupted;
	}
	terminal.finish(formatSummary(summary));
	if (summary.blockedHosts.length > 0) return EXIT.churnBlocked;
	return someFailed(summary) ? EXIT.someFailed : EXIT.ok;
}
