import type { ChildProcess } from 'node:child_process';

/**
 * How a child process ended, as the end of a sentence about it: `undefined` for exit
 * status 0, else `could not be started: …`, `was killed by SIGTERM` or `exited with
 * status 3`. Shared by the command source and the command sink.
 *
 * @example
 * const problem = await howItEnded(spawn('/bin/sh', ['-c', command]));
 * if (problem) console.error(`command ${command} ${problem}`);
 */
export function howItEnded(child: ChildProcess): Promise<string | undefined> {
	return new Promise((resolve) => {
		child.once('error', (error) => resolve(`could not be started: ${error.message}`));
		child.once('close', (code, signal) => resolve(code === 0 ? undefined : signal ? `was killed by ${signal}` : `exited with status ${code}`));
	});
}
