import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { PipelineError } from '../../base/errors/index.js';
import { howItEnded } from '../../base/util/shell.js';
import { emit, type When } from '../../stages/emit.js';
import { withResource } from './resource.js';
import { quiet, type Sink } from './sink.js';

export interface CommandSinkOptions {
	/** A shell command (`/bin/sh -c`) that reads the lines on its standard input. */
	command: string;
	format?: 'lines' | 'ndjson' | undefined;
	when?: When | undefined;
}

interface Running {
	child: ChildProcessByStdio<Writable, Readable, Readable>;
	exited: Promise<string | undefined>;
}

/**
 * Pipes the lines into a shell command started with the run; its output goes to the
 * run's stdout and stderr. A line counts as written once the command's pipe has it, as
 * with `revisit sweep | command`. The run ends after the command has exited; an exit
 * status other than 0, or a command that stops reading, fails the run with SINK_FAILED
 * (exit 1). What was written before stays committed.
 *
 * @example
 * commandSink({ command: 'xargs -n1 curl -sO', when: 'changed' })
 */
export function commandSink(options: CommandSinkOptions): Sink {
	const label = `sink command \`${options.command}\``;
	return (context) =>
		withResource<Running>(
			async () => {
				const child = spawn('/bin/sh', ['-c', options.command], { stdio: ['pipe', 'pipe', 'pipe'], env: context.env });
				child.stdout.pipe(context.stdout, { end: false });
				child.stderr.pipe(context.stderr, { end: false });
				// Write failures arrive in the write callbacks below.
				child.stdin.on('error', () => {});
				const exited = howItEnded(child);
				return { child, exited };
			},
			({ child }) =>
				emit(
					{ format: options.format ?? 'lines', when: options.when ?? 'changed' },
					{
						out: (text) =>
							new Promise<void>((resolve, reject) => {
								child.stdin.write(text, (error) => {
									if (!error) return resolve();
									const code = (error as NodeJS.ErrnoException).code ?? error.message;
									reject(new PipelineError('SINK_FAILED', `${label} stopped reading its input (${code})`, { cause: error }));
								});
							}),
						diagnose: quiet,
					},
				),
			async ({ child, exited }, outcome) => {
				child.stdin.end();
				if (outcome === 'unsubscribe') return;
				const problem = await exited;
				if (problem !== undefined && outcome === 'complete') throw new PipelineError('SINK_FAILED', `${label} ${problem}`);
			},
		);
}
