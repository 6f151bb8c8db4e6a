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

/** Stands for a `-` argument (stdin) once yargs has parsed the command line. */
export const STDIN_ARG = '\0stdin';

/** Yields argument URLs as lines, splicing in stdin where an argument is `-` or when there are none. */
export async function* inputFrom(urls: readonly string[], stdin: Readable): AsyncIterable<Buffer | string> {
	if (urls.length === 0) {
		yield* stdin;
		return;
	}
	for (const url of urls) {
		if (url === STDIN_ARG || url === '-') {
			for await (const chunk of stdin) yield chunk;
			yield '\n';
		} else {
			yield `${url.replaceAll('\n', ' ')}\n`;
		}
	}
}
