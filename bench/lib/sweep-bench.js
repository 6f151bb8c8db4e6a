// What the sweep benches share: a forked bench/origin.js with its URL list in a file, a
// timed CLI sweep reading that file as stdin (as `< urls.txt` would), and a free port.
import { fork, spawnSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
export const CLI = path.join(ROOT, 'bin/revisit.js');

/**
 * Forks bench/origin.js with `pages` pages and writes their URLs, one per line, to
 * `dir/urls.txt`.
 *
 * @example
 * const origin = await startOrigin(10_000, tmp); ... origin.kill();
 */
export async function startOrigin(pages, dir) {
	const child = fork(path.join(ROOT, 'bench/origin.js'), [String(pages)], { stdio: 'ignore' });
	const port = await new Promise((resolve) => child.on('message', (message) => message.type === 'ready' && resolve(message.port)));
	const urlsFile = path.join(dir, 'urls.txt');
	writeFileSync(urlsFile, Array.from({ length: pages }, (_, i) => `http://127.0.0.1:${port}/p/${i}`).join('\n') + '\n');
	return { port, urlsFile, kill: () => child.kill() };
}

/**
 * Runs `node bin/revisit.js ARGS < urlsFile` and returns its wall-clock seconds and stdout
 * lines; throws on a non-zero exit.
 *
 * @example
 * const { seconds } = timedRun(origin.urlsFile, ['sweep', '--store', dir, '-q']);
 */
export function timedRun(urlsFile, args, script = CLI) {
	const stdin = openSync(urlsFile, 'r');
	const started = process.hrtime.bigint();
	const result = spawnSync(process.execPath, [script, ...args], { stdio: [stdin, 'pipe', 'pipe'], maxBuffer: 1 << 28 });
	closeSync(stdin);
	if (result.status !== 0) throw new Error(`${path.basename(script)} ${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
	return { seconds: Number(process.hrtime.bigint() - started) / 1e9, lines: result.stdout.toString().split('\n').filter(Boolean).length };
}

/** The sweep flags the CPU benches share: one origin standing for many hosts, no audits. */
export const ONE_ORIGIN = ['-q', '--audit', '0', '--concurrency', '24', '--per-host', '24'];

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
	const probe = net.createServer();
	await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
	const { port } = probe.address();
	await new Promise((resolve) => probe.close(resolve));
	return port;
}
