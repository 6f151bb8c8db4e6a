import { spawn } from 'node:child_process';
import { concat, defer, finalize, Observable } from 'rxjs';
import { readLines } from './read-lines.js';
import type { InputLine } from '../../domain/task/types.js';
import { howItEnded } from '../../base/util/shell.js';
import { labelled, type Source } from './source.js';

/**
 * The standard output of a shell command (`/bin/sh -c`), one URL per line, read as it
 * runs; the command's stderr goes to the run's stderr. A command that exits non-zero
 * (or is killed) is reported as bad input, so the run exits 1, after its lines are
 * swept. Unsubscribing kills it.
 *
 * @example
 * commandSource('revisit due --store old-store')
 */
export function commandSource(command: string): Source {
	const label = `command \`${command}\``;
	return (context) =>
		defer(() => {
			const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], env: context.env });
			child.stderr.pipe(context.stderr, { end: false });
			const exited = howItEnded(child);
			// After its output: how it ended, as one more input line when it failed.
			const status = new Observable<InputLine>((subscriber) => {
				let stopped = false;
				void exited.then(async (problem) => {
					if (problem !== undefined) {
						await context.valve.acquire();
						if (!stopped) subscriber.next({ line: 0, text: '', source: label, problem });
					}
					subscriber.complete();
				});
				return () => {
					stopped = true;
				};
			});
			return concat(readLines(child.stdout, context.valve).pipe(labelled(label)), status).pipe(
				finalize(() => {
					if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
				}),
			);
		});
}
