// Sweep time on a Redis store against LevelDB: `npm run build && node bench/redis-sweep.js [N]`.
//
// Forks bench/origin.js (N pages, default 20,000, strong ETags, 127.0.0.1) and starts its
// own redis-server (a free port, no persistence). Runs the real CLI three times on each
// store, `revisit sweep --store S -q --audit 0 --concurrency 24 --per-host 24` with the N
// URLs on stdin: a first sweep (every URL new) and two more (every URL a 304). Reports
// wall-clock seconds from spawn to exit and the number of changed URLs printed.
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './lib/sweep-bench.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pages = Number(process.argv[2] ?? 20_000);
const origin = fork(path.join(root, 'bench/origin.js'), [String(pages)], { stdio: 'ignore' });
const port = await new Promise((resolve) => origin.on('message', (message) => message.type === 'ready' && resolve(message.port)));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'revisit-redis-sweep-'));
const redisPort = await freePort();
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmp], {
	stdio: 'ignore',
});
try {
	await new Promise((resolve) => setTimeout(resolve, 500));
	const urls = Array.from({ length: pages }, (_, i) => `http://127.0.0.1:${port}/p/${i}`).join('\n');
	const sweep = (store) => {
		const started = Date.now();
		const args = [path.join(root, 'bin/revisit.js'), 'sweep', '--store', store, '-q', '--audit', '0', '--concurrency', '24', '--per-host', '24'];
		const result = spawnSync(process.execPath, args, { input: urls, maxBuffer: 1 << 28 });
		if (result.status !== 0) throw new Error(`sweep on ${store}: exit ${result.status}: ${result.stderr}`);
		return `${((Date.now() - started) / 1000).toFixed(2)} s (${result.stdout.toString().split('\n').filter(Boolean).length} changed)`;
	};
	for (const [name, store] of [
		['LevelDB', path.join(tmp, 'level')],
		['Redis', `redis://127.0.0.1:${redisPort}/0`],
	]) {
		console.log(`${name.padEnd(8)} first ${sweep(store)}  second ${sweep(store)}  third ${sweep(store)}`);
	}
} finally {
	redis.kill('SIGTERM');
	origin.kill();
	rmSync(tmp, { recursive: true, force: true });
}
