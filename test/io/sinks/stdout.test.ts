import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { stdoutSink } from '../../../src/io/sinks/stdout.js';
import { failed, judged, sinkContext, unchanged } from './context.js';

const tasks = [judged('https://a.example/1'), unchanged('https://a.example/2'), failed('https://a.example/3')];

describe('stdoutSink', () => {
	it('prints the changed URLs one per line by default', async () => {
		const sink = sinkContext();
		const out = await lastValueFrom(from(tasks).pipe(stdoutSink()(sink.context), toArray()));
		expect(sink.printed()).toBe('https://a.example/1\n');
		expect(out).toHaveLength(3);
	});

	it('prints the verdicts `when` selects as NDJSON', async () => {
		const sink = sinkContext();
		await lastValueFrom(from(tasks).pipe(stdoutSink({ format: 'ndjson', when: 'unchanged' })(sink.context), toArray()));
		expect(
			sink
				.printed()
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line).url),
		).toEqual(['https://a.example/2']);
	});

	it('prints no diagnostics of its own (they are printed once per run, not per sink)', async () => {
		const sink = sinkContext();
		await lastValueFrom(from([failed('https://user:pw@a.example/3')]).pipe(stdoutSink()(sink.context), toArray()));
		expect(sink.printed()).toBe('');
		expect(sink.stderr()).toBe('');
	});
});
