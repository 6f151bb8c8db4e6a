import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Loads every core with a busy loop in a child process each, as a busy CI machine would,
 * until `stop` (which kills them by pid). A loop gives the CPU back every 50 ms for a
 * moment: the load is what other work looks like, not a freeze.
 *
 * @example
 * const load = loadCpu();
 * try { ... } finally { await load.stop(); }
 */
export function loadCpu(count = availableParallelism()): { stop(): Promise<void> } {
	const loop = 'for (;;) { const end = Date.now() + 50; while (Date.now() < end); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1); }';
	const children = Array.from({ length: count }, () => spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }));
	return {
		async stop() {
			await Promise.all(
				children.map(
					(child) =>
						new Promise<void>((resolve) => {
							if (child.exitCode !== null || child.signalCode !== null) return resolve();
							child.once('exit', () => resolve());
							child.kill('SIGKILL');
						}),
				),
			);
		},
	};
}
