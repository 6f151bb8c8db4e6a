import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const BIN = fileURLToPath(new URL('../../bin/revisit.js', import.meta.url));

export interface CliRun {
	status: number;
	stdout: string;
	stderr: string;
}

/**
 * Runs the CLI in-process (the source, not dist), with the given stdin, and as its
 * environment `env` with the suite's $REVISIT_ROBOTS (vitest.config.ts) unless `env` says:
 * the CLI reads its defaults from the environment it is given, as a child's from its own.
 *
 * @example
 * const { status, stdout } = await runCli(['sweep', '--store', dir], 'https://x/\n');
 */
export async function runCli(args: string[], stdin = '', env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
	const stdout = collect();
	const stderr = collect();
	const status = await main(args, {
		stdin: Readable.from(stdin === '' ? [] : [Buffer.from(stdin)]),
		stdout: stdout.stream,
		stderr: stderr.stream,
		env: { REVISIT_ROBOTS: process.env.REVISIT_ROBOTS, ...env },
		interrupted: new Promise(() => {}),
	});
	return { status, stdout: stdout.text(), stderr: stderr.text() };
}

/** Runs the built CLI (bin/revisit.js → dist) as a child process. */
export function spawnCli(args: string[], stdin: string, env: NodeJS.ProcessEnv = {}) {
	const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	child.stdin.end(stdin);
	const done = new Promise<CliRun & { signal: NodeJS.Signals | null }>((resolve) =>
		child.on('close', (code, signal) => resolve({ status: code ?? -1, signal, stdout, stderr })),
	);
	return { child, done, stdout: () => stdout, stderr: () => stderr };
}

/** A stream that keeps what is written to it: `text()` is all of it so far. */
export function collect() {
	const stream = new PassThrough();
	const chunks: Buffer[] = [];
	stream.on('data', (chunk: Buffer) => chunks.push(chunk));
	return { stream, text: () => Buffer.concat(chunks).toString() };
}

/** A fresh temporary store directory, removed by the returned cleanup. */
export async function tempDir(prefix = 'revisit-test-'): Promise<{ dir: string; cleanup(): Promise<void> }> {
	const dir = await mkdtemp(path.join(tmpdir(), prefix));
	return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Parses NDJSON output into objects. */
export function ndjson(text: string): Array<Record<string, unknown>> {
	return text
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}
