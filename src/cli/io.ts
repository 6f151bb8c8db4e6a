import type { Readable, Writable } from 'node:stream';

/** The process edges a command touches, injectable so commands can be run in-process. */
export interface CliIo {
	stdin: Readable;
	stdout: Writable;
	stderr: Writable & { isTTY?: boolean };
	env: NodeJS.ProcessEnv;
	/** Resolves when the user asks to stop (SIGINT/SIGTERM). */
	interrupted: Promise<string>;
}

export function processIo(): CliIo {
	return {
		stdin: process.stdin,
		stdout: process.stdout,
		stderr: process.stderr,
		env: process.env,
		interrupted: new Promise((resolve) => {
			process.once('SIGINT', () => resolve('SIGINT'));
			process.once('SIGTERM', () => resolve('SIGTERM'));
		}),
	};
}
