import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

/**
 * Copies an input to a temporary file until it ends, and returns a reader of that file
 * (which removes it when done). `revisit sweep --candidates | revisit fetch` needs this:
 * LevelDB admits one process at a time, so the fetch must let the sweep finish (and
 * release the store) without blocking the pipe between them. A Redis store admits both
 * at once, and its fetch streams instead (pipelines/job.ts).
 *
 * @example
 * const replay = await spool(argsInput(urls, stdin));
 */
export async function spool(input: AsyncIterable<Buffer | string>): Promise<AsyncIterable<Buffer | string>> {
	const dir = await mkdtemp(path.join(tmpdir(), 'revisit-spool-'));
	const file = path.join(dir, 'input');
	// The URLs are the user's alone, as the store is: mkdtemp's directory is 0700, the file 0600.
	await pipeline(Readable.from(input), createWriteStream(file, { mode: 0o600 }));
	return (async function* () {
		try {
			yield* createReadStream(file);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	})();
}

/**
 * Resolves once `input` has produced its first chunk (or ended), with an iterable of all
 * of it: a fetch fed by `revisit sweep | revisit fetch` waits for the sweep's first line,
 * by which time the sweep holds the store.
 *
 * @example
 * const lines = await afterFirst(argsInput(urls, stdin));
 */
export async function afterFirst(input: AsyncIterable<Buffer | string>): Promise<AsyncIterable<Buffer | string>> {
	const iterator = input[Symbol.asyncIterator]();
	const first = await iterator.next();
	return (async function* () {
		if (first.done) return;
		yield first.value;
		for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
	})();
}
