import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RevisitError } from '../../../src/base/errors/index.js';
import { commandSink } from '../../../src/io/sinks/command.js';
import { tempDir } from '../../helpers/cli.js';
import { failed, judged, sinkContext, unchanged } from './context.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
	({ dir, cleanup } = await tempDir('revisit-command-sink-'));
});
afterEach(() => cleanup());

const tasks = [
	judged('https://a.example/1'),
	unchanged('https://a.example/2'),
	judged('https://a.example/4', { reason: 'gone', status: 404 }),
	failed('https://a.example/3'),
];

describe('commandSink', () => {
	it("pipes the changed URLs into the command's standard input, and ends after the command has exited", async () => {
		const file = path.join(dir, 'got.txt');
		const sink = sinkContext();
		// The command writes its file only when its input ends: it must have exited before the run completes.
		const out = await lastValueFrom(from(tasks).pipe(commandSink({ command: `cat > ${file}.part && mv ${file}.part ${file}` })(sink.context), toArray()));
		expect(out).toHaveLength(4);
		expect(await readFile(file, 'utf8')).toBe('https://a.example/1\nhttps://a.example/4\n');
	});

	it('sends NDJSON verdicts for the verdicts `when` selects', async () => {
		const file = path.join(dir, 'errors.ndjson');
		await lastValueFrom(from(tasks).pipe(commandSink({ command: `cat > ${file}`, format: 'ndjson', when: 'error' })(sinkContext().context), toArray()));
		const lines = (await readFile(file, 'utf8'))
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(lines).toEqual([tasks[3]!.verdict]);
	});

	it("passes the command's own output to the run's stdout and stderr, with the run's environment", async () => {
		const sink = sinkContext({ GREETING: 'hello' });
		await lastValueFrom(from(tasks).pipe(commandSink({ command: 'wc -l | tr -d " "; echo "$GREETING" >&2' })(sink.context), toArray()));
		expect(sink.stdout()).toBe('2\n');
		expect(sink.stderr()).toBe('hello\n');
	});

	it('fails the run with SINK_FAILED when the command exits with another status than 0', async () => {
		const run = lastValueFrom(from(tasks).pipe(commandSink({ command: 'cat > /dev/null; exit 3' })(sinkContext().context), toArray()));
		const error = await run.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(RevisitError);
		expect(error).toMatchObject({ code: 'SINK_FAILED' });
		expect((error as Error).message).toContain('exited with status 3');
	});
});
