import type { Readable } from 'node:stream';

/** Stands for a `-` argument (stdin) once the command line is parsed. */
export const STDIN_ARG = '\0stdin';

/**
 * Yields argument URLs as lines, splicing in stdin where an argument is `-` (or
 * `STDIN_ARG`) and reading stdin alone when there are none.
 *
 * @example
 * readLines(argsInput(['https://example.org/', '-'], process.stdin), valve)
 */
export async function* argsInput(urls: readonly string[], stdin: Readable | AsyncIterable<Buffer | string>): AsyncIterable<Buffer | string> {
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
