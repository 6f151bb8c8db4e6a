import { once } from 'node:events';

/**
 * Asks a forked fixture process to close, and kills it if it has not exited 3 s later.
 *
 * @example
 * await closeChild(origin);
 */
export async function closeChild(child) {
	if (child.exitCode !== null) return;
	child.send({ type: 'close' });
	const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
	await once(child, 'exit');
	clearTimeout(timer);
}
