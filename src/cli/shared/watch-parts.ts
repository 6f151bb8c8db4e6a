import { watchInputs, type WatchInputsSpec } from '../../watch/inputs.js';
import { processSignals } from '../../watch/signals.js';
import { runWatch, type WatchEdges, type WatchJob } from '../../watch/job.js';
import type { WatchParts } from '../../watch/build.js';
import { STDIN_ARG } from '../../io/sources/args.js';
import type { CliIo } from '../io.js';
import type { ListenAddress } from '../../watch/listen.js';
import { describeStore } from '../../store/open.js';
import type { ValidatorStore } from '../../store/model/types.js';
import { EXIT } from '../../base/errors/index.js';
import { formatSummary } from '../../pipelines/summary.js';
import { runOnTerminal } from '../run-pipeline.js';
import { formatWatchStatus } from '../../watch/status.js';

/**
 * The watch's inputs from its flags (watch/inputs.ts): the URL arguments, stdin (when `-`
 * is one of them, or nothing else is given), `--input` files and `--sitemap`s.
 */
export function watchInputsFor(args: { urls: string[]; input: string[]; sitemap: string[] }): WatchParts['inputs'] {
	const dash = args.urls.some((url) => url === '-' || url === STDIN_ARG);
	const readsStdin = dash || (args.urls.length === 0 && args.input.length === 0 && args.sitemap.length === 0);
	return { urls: args.urls.filter((url) => url !== '-' && url !== STDIN_ARG), stdin: readsStdin, files: args.input, sitemaps: args.sitemap };
}

/** A watch's inputs, read again on this process's SIGHUP, and its listening server (`--listen`): what this process gives the job. */
function watchEdgesOf(job: WatchJob, io: CliIo): WatchEdges {
	const options = job.shape.options;
	const spec: WatchInputsSpec = { ...job.inputs, stdin: job.inputs.stdin ? io.stdin : undefined };
	return {
		inputs: ({ deps, clock, wallMs, diagnose }) => watchInputs(spec, { signals: processSignals(), clock, wallMs, diagnose, http: { deps, retry: options } }),
		observe: options.listen && watchObserve(options.listen, options.listenHosts, job.store, io),
	};
}

/**
 * The metrics and listening server for `--listen HOST:PORT`, answering the `--listen-host` names too; where it listens is said on stderr (port 0 picks one).
 */
function watchObserve(address: ListenAddress, hosts: readonly string[], store: string | ValidatorStore, io: CliIo): WatchEdges['observe'] {
	// prom-client and the live report page load only for a watch that listens.
	return async ({ store: opened, scale, deliveries }) =>
		(await import('../../watch/observe.js')).observeWatch(address, {
			store: opened,
			deliveries,
			hosts,
			source: typeof store === 'string' ? describeStore(store) : 'the store given',
			scale,
			onListening: (bound) =>
				io.stderr.write(`revisit: listening on http://${bound.host.includes(':') ? `[${bound.host}]` : bound.host || '0.0.0.0'}:${bound.port}/\n`),
		});
}

/**
 * A watch on the terminal (`revisit watch`, `revisit run` of a watch-mode file): its
 * inputs read from this process (stdin, SIGHUP), its listening server, its figures as
 * progress on a TTY, or as a status line every `statusEveryMs` where there is none
 * (neither with quiet), the summary when it stops (not with quiet), exit 0 once stopped
 * by a signal or at its end.
 *
 * @example
 * result.status = await runWatchOnTerminal(io, job, { quiet: false });
 */
export async function runWatchOnTerminal(io: CliIo, job: WatchJob, display: { quiet: boolean; env?: NodeJS.ProcessEnv }): Promise<number> {
	const attached = watchEdgesOf(job, io);
	const shown = { ...display, statusEveryMs: job.shape.options.statusEveryMs };
	const { run, summary, stopped, terminal, elapsedMs } = await runOnTerminal(
		io,
		shown,
		(edges) => runWatch(job, attached, edges, io.interrupted),
		(watch, ms) => `${formatWatchStatus(watch.figures)}, ${formatElapsed(ms)}`,
	);
	terminal.finish(`${formatSummary({ ...summary, elapsedMs }, { watched: run.figures.watched })}${stopped ? `; stopped by ${stopped}` : ''}`);
	return EXIT.ok;
}

/** Wall time since the start: `42s`, `12m 5s`, `3h 20m`, `2d 4h`. */
function formatElapsed(ms: number): string {
	const s = Math.floor(ms / 1000);
	if (s < 60) return `${s}s`;
	if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
	if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor(s / 60) % 60}m`;
	return `${Math.floor(s / 86_400)}d ${Math.floor(s / 3600) % 24}h`;
}
