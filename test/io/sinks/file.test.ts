import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RevisitError } from '../../../src/base/errors/index.js';
import { fileSink, type FileSinkOptions } from '../../../src/io/sinks/file.js';
import type { Task } from '../../../src/domain/task/types.js';
import { tempDir } from '../../helpers/cli.js';
import { failed, judged, sinkContext, unchanged } from './context.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
	({ dir, cleanup } = await tempDir('revisit-file-sink-'));
});
afterEach(() => cleanup());

const tasks = [judged('https://a.example/1'), unchanged('https://a.example/2'), failed('https://a.example/3')];
const run = (options: FileSinkOptions, input: Task[] = tasks) => lastValueFrom(from(input).pipe(fileSink(options)(sinkContext().context), toArray()));

describe('fileSink', () => {
	it('writes the changed URLs one per line by default, and passes every task on', async () => {
		const file = path.join(dir, 'changed.txt');
		const out = await run({ path: file });
		expect(out).toHaveLength(3);
		expect(await readFile(file, 'utf8')).toBe('https://a.example/1\n');
	});

	it('writes every verdict as NDJSON with when all', async () => {
		const file = path.join(dir, 'verdicts.ndjson');
		await run({ path: file, format: 'ndjson', when: 'all' });
		const lines = (await readFile(file, 'utf8'))
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(lines.map((verdict) => [verdict.url, verdict.reason])).toEqual([
			['https://a.example/1', 'new-body'],
			['https://a.example/2', '304'],
			['https://a.example/3', 'error'],
		]);
	});

	it('appends to what the file holds by default, and empties it first with truncate', async () => {
		const file = path.join(dir, 'changed.txt');
		await writeFile(file, 'https://earlier.example/\n');
		await run({ path: file });
		expect(await readFile(file, 'utf8')).toBe('https://earlier.example/\nhttps://a.example/1\n');
		await run({ path: file, mode: 'truncate' });
		expect(await readFile(file, 'utf8')).toBe('https://a.example/1\n');
	});

	it('creates the folder the file goes in', async () => {
		const file = path.join(dir, 'deep', 'er', 'errors.txt');
		await run({ path: file, when: 'error' });
		expect(await readFile(file, 'utf8')).toBe('https://a.example/3\n');
	});

	it('fails the run with SINK_FAILED when the file cannot be opened, before any task passes', async () => {
		const passed: Task[] = [];
		const run$ = from(tasks).pipe(fileSink({ path: dir })(sinkContext().context));
		const error = await new Promise((resolve) => run$.subscribe({ next: (task) => passed.push(task), error: resolve, complete: () => resolve(undefined) }));
		expect(error).toBeInstanceOf(RevisitError);
		expect((error as RevisitError).code).toBe('SINK_FAILED');
		expect(passed).toEqual([]);
	});
});
