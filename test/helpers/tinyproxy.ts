import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeNeeding, findProgram } from './debian.js';
import { freePort } from '../interop/servers/launch.js';
import { listening } from './listening.js';

/** How to get tinyproxy on Debian; named by the one skip line. */
export const TINYPROXY_INSTALL = 'apt-get install -y tinyproxy';

/** tinyproxy's absolute path, or undefined when it is not installed. */
export const TINYPROXY = findProgram('tinyproxy');

/**
 * A describe block for tests that need tinyproxy: skipped with one line naming the package
 * when it is missing, except under CI=true, where that fails.
 */
export function describeTinyproxy(name: string, body: () => void): void {
	describeNeeding({ name: 'tinyproxy', path: TINYPROXY, install: TINYPROXY_INSTALL }, name, body);
}

export interface TestProxy {
	/** `http://127.0.0.1:PORT` */
	url: string;
	/** The log so far. */
	log(): Promise<string>;
	stop(): Promise<void>;
}

/** Starts tinyproxy in the foreground on a free port of 127.0.0.1, logging to a temp dir; stopped by its pid. */
export async function startTinyproxy(): Promise<TestProxy> {
	const dir = await mkdtemp(path.join(tmpdir(), 'revisit-tinyproxy-'));
	const port = await freePort();
	const logFile = path.join(dir, 'tinyproxy.log');
	const config = path.join(dir, 'tinyproxy.conf');
	await writeFile(
		config,
		[`Port ${port}`, 'Listen 127.0.0.1', 'Allow 127.0.0.1', `LogFile "${logFile}"`, 'LogLevel Info', 'MaxClients 50', 'Timeout 30', ''].join('\n'),
	);
	const child = spawn(TINYPROXY!, ['-d', '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	await listening(child, port, 'tinyproxy', () => stderr);
	return {
		url: `http://127.0.0.1:${port}`,
		log: () => readFile(logFile, 'utf8').catch(() => ''),
		async stop() {
			if (child.exitCode === null) {
				process.kill(child.pid!, 'SIGTERM');
				await exited;
			}
			await rm(dir, { recursive: true, force: true });
		},
	};
}
