import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.js';

export interface TestWorker {
	child: ChildProcess;
	readonly log: string;
	/** SIGKILL, and wait for the exit. */
	kill(): Promise<void>;
	/** SIGTERM, and wait for the exit status. */
	stop(): Promise<number | null>;
}

// Every worker started here, so that a test that times out still leaves none behind.
const running = new Set<ChildProcess>();
process.once('exit', () => {
	for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `revisit worker --store URL` processes from the built CLI and waits until each
 * has said it is ready (its heartbeat is in Redis by then).
 *
 * @example
 * const workers = await startWorkers(redis.url('t1:'), 3);
 * try { ... } finally { await Promise.all(workers.map((worker) => worker.stop())); }
 */
export async function startWorkers(store: string, count: number, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<TestWorker[]> {
	const named = (i: number) => (extra.includes('--id') ? [] : ['--id', `w${i}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`]);
	return Promise.all(Array.from({ length: count }, (_, i) => startWorker(store, [...named(i), ...extra], env)));
}

async function startWorker(store: string, args: string[], env: NodeJS.ProcessEnv): Promise<TestWorker> {
	const child = spawn(process.execPath, [BIN, 'worker', '--store', store, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
	running.add(child);
	let log = '';
	const exited = new Promise<number | null>((resolve) =>
		child.on('exit', (code) => {
			running.delete(child);
			resolve(code);
		}),
	);
	await new Promise<void>((resolve, reject) => {
		child.stderr!.on('data', (chunk: Buffer) => {
			log += chunk.toString();
			if (log.includes(' ready')) resolve();
		});
		void exited.then((code) => reject(new Error(`worker exited with ${code} before it was ready: ${log}`)));
	});
	return {
		child,
		get log() {
			return log;
		},
		kill: async () => {
			child.kill('SIGKILL');
			await exited;
		},
		stop: async () => {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			return exited;
		},
	};
}
