import { PassThrough } from 'node:stream';
import type { SinkContext } from '../../../src/io/sinks/sink.js';
import type { Task, Verdict } from '../../../src/domain/task/types.js';

/** The clock every sink test runs at: 2024-01-01T00:00:00Z. */
export const NOW = Date.UTC(2024, 0, 1);

/**
 * A sink context whose stdout writer, and the stdout and stderr a command's output goes to,
 * are collected as text.
 *
 * @example
 * const context = sinkContext();
 * ... pipe(fileSink(options)(context)) ...
 * context.printed() // what `out` was given
 */
export function sinkContext(env: NodeJS.ProcessEnv = {}) {
	const printed: string[] = [];
	const stdout = new PassThrough();
	const stderr = new PassThrough();
	const collected = { stdout: '', stderr: '' };
	stdout.on('data', (chunk: Buffer) => (collected.stdout += chunk.toString()));
	stderr.on('data', (chunk: Buffer) => (collected.stderr += chunk.toString()));
	const context: SinkContext = {
		out: async (text) => void printed.push(text),
		stdout,
		stderr,
		env: { PATH: process.env.PATH, ...env },
		clock: { now: () => NOW },
	};
	return { context, printed: () => printed.join(''), stdout: () => collected.stdout, stderr: () => collected.stderr };
}

/** A judged task for `url`: changed (`new-body`) unless the verdict says otherwise. */
export function judged(url: string, verdict: Partial<Verdict> = {}, more: Partial<Task> = {}): Task {
	return { line: 1, input: url, url, verdict: { url, changed: true, reason: 'new-body', status: 200, ...verdict }, ...more };
}

export const unchanged = (url: string): Task => judged(url, { changed: false, reason: '304', status: 304 });
export const failed = (url: string): Task => judged(url, { changed: false, reason: 'error', error: { code: 'ECONNRESET', message: 'reset' } });
