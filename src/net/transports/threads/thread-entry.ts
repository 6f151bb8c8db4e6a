import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where the compiled thread body (dist/net/transports/threads/thread-main.js) is, seen from this module:
 * from the bundled CLI (dist/cli.js), from the library (dist/net/transports/threads/) or from the
 * TypeScript sources under a test runner (src/net/transports/threads/, which `npm run build` compiles).
 * A thread can only run compiled JavaScript, so the sources never point at themselves.
 *
 * @example
 * new Worker(threadEntry(import.meta.url), { workerData: settings })
 */
export function threadEntry(from: string): URL {
	const candidates = ['./net/transports/threads/thread-main.js', './thread-main.js', '../../../../dist/net/transports/threads/thread-main.js'].map(
		(path) => new URL(path, from),
	);
	const found = candidates.find((url) => existsSync(fileURLToPath(url)));
	if (!found)
		throw new Error(`revisit: the worker thread body is missing (looked for ${candidates.map((url) => fileURLToPath(url)).join(', ')}); run npm run build`);
	return found;
}
