import { createReadStream, type ReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InputLine } from '../../src/domain/task/types.js';
import { readLines } from '../../src/io/sources/read-lines.js';
import { BATCH_LINES, readBatches } from '../../src/watch/batches.js';

const urls = (count: number) => Array.from({ length: count }, (_, i) => `https://example.org/${i}\n`).join('');

describe('readBatches', () => {
	it('hands over every line in order, in batches of at most BATCH_LINES, the last one marked', async () => {
		const taken: Array<{ lines: InputLine[]; last: boolean }> = [];
		await readBatches(
			(valve) => readLines(Readable.from([urls(2500)]), valve),
			async (lines, last) => void taken.push({ lines, last }),
			new AbortController().signal,
		);
		expect(taken.flatMap((batch) => batch.lines.map((line) => line.line))).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
		expect(Math.max(...taken.map((batch) => batch.lines.length))).toBe(BATCH_LINES);
		expect(taken.map((batch) => batch.last)).toEqual([...taken.slice(1).map(() => false), true]);
	});

	it('marks an empty input read in full with one empty last batch', async () => {
		const taken: Array<{ lines: InputLine[]; last: boolean }> = [];
		await readBatches(
			(valve) => readLines(Readable.from(['# only a comment\n\n']), valve),
			async (lines, last) => void taken.push({ lines, last }),
			new AbortController().signal,
		);
		expect(taken).toEqual([{ lines: [], last: true }]);
	});

	it('hands over what was read before an input failed, never as the last batch, and rejects', async () => {
		const failing = (async function* () {
			yield 'https://example.org/a\n';
			throw new Error('EIO: the disk went away');
		})();
		const taken: Array<{ lines: InputLine[]; last: boolean }> = [];
		await expect(
			readBatches(
				(valve) => readLines(failing, valve),
				async (lines, last) => void taken.push({ lines, last }),
				new AbortController().signal,
			),
		).rejects.toThrow('EIO');
		expect(taken.flatMap((batch) => batch.lines.map((line) => line.text))).toEqual(['https://example.org/a']);
		expect(taken.some((batch) => batch.last)).toBe(false);
	});

	it('when aborted while a batch is held, returns and closes the file it was reading', async () => {
		const dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-batches-'));
		try {
			const file = path.join(dir, 'urls.txt');
			await writeFile(file, urls(20_000));
			const controller = new AbortController();
			let stream: ReadStream | undefined;
			let taken = 0;
			const reading = readBatches(
				(valve) => readLines((stream = createReadStream(file)), valve),
				// The first batch is never done with: the reader waits for credit.
				() => (taken++, controller.abort(), new Promise<void>(() => {})),
				controller.signal,
			);
			await reading;
			expect(taken).toBe(1);
			await new Promise<void>((resolve) => (stream!.closed ? resolve() : stream!.once('close', () => resolve())));
			expect(stream!.destroyed).toBe(true);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});
