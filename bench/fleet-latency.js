// Latency-bound scaling of a Redis fleet: `npm run build && node bench/fleet-latency.js [--pages 20] [--reps 2]`.
//
// Forks bench/lib/latency-origins.js (100 origins on 127.0.0.1, every answer 100 ms late)
// and starts its own redis-server (free port, no persistence). For 1, 2 and 4 workers
// (`revisit worker`, default --concurrency 32), times `revisit sweep --workers --per-host 2`
// over 100 x PAGES URLs, a first sweep on a fresh prefix (every URL new). Also times the
// plain sweep (no fleet, default --concurrency 24) for reference. Rows run in turn per
// repetition; the median wall-clock seconds (spawn to exit) is reported, with each row's
// speed against one worker. Two reference rows run bench/got-loop.js over the same URLs
// at 32 and at 128 in flight (one worker's concurrency and four workers'): the most a 4x
// rise in concurrency gives on this machine with no fleet, no store and no judging at all.
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { freePort } from './lib/sweep-bench.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({ options: { pages: { type: 'string', default: '20' }, reps: { type: 'string', default: '2' } } });
const pages = Number(values.pages);
const reps = Number(values.reps);
const cli = path.join(root, 'bin/revisit.js');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'revisit-fleet-latency-'));
const origins = fork(path.join(root, 'bench/lib/latency-origins.js'), ['100', '100'], { stdio: 'ignore' });
const ports = await new Promise((resolve) => origins.on('message', (message) => message.type === 'ready' && resolve(message.ports)));
const urls = ports.flatMap((port) => Array.from({ length: pages }, (_, i) => `http://127.0.0.1:${port}/p/${i}`));
// Interleave hosts, as a real list mixes them.
const input = Array.from({ length: urls.length }, (_, i) => urls[(i % ports.length) * pages + Math.floor(i / ports.length)]).join('\n') + '\n';
const redisPort = await freePort();
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmp], {
	stdio: 'ignore',
});
let prefix = 0;

const startWorkers = async (store, n) => {
	const children = Array.from({ length: n }, (_, i) =>
		spawn(process.execPath, [cli, 'worker', '--store', store, '--id', `bench${i}`], { stdio: ['ignore', 'ignore', 'pipe'] }),
	);
	await Promise.all(
		children.map(
			(child) =>
				new Promise((resolve) => {
					let log = '';
					child.stderr.on('data', (chunk) => (log += chunk) && log.includes(' ready') && resolve());
				}),
		),
	);
	return children;
};

const time = (args, script = cli) => {
	const started = process.hrtime.bigint();
	const result = spawnSync(process.execPath, [script, ...args], { input, maxBuffer: 1 << 26, cwd: root });
	if (result.status !== 0) throw new Error(`${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
	const printed = result.stdout.toString().split('\n').filter(Boolean).length;
	if (printed !== urls.length) throw new Error(`${args.join(' ')}: printed ${printed} of ${urls.length}`);
	return Number(process.hrtime.bigint() - started) / 1e9;
};

try {
	await new Promise((resolve) => setTimeout(resolve, 500));
	const rows = [
		{ name: 'plain sweep, no fleet (--concurrency 24)', workers: 0 },
		...[1, 2, 4].map((n) => ({ name: `--workers, ${n} worker${n > 1 ? 's' : ''}`, workers: n })),
		...[32, 128].map((n) => ({ name: `got loop, ${n} in flight (no fleet, no store)`, gotLoop: n })),
	];
	for (const row of rows) row.times = [];
	for (let rep = 0; rep < reps; rep++) {
		for (const row of rows) {
			if (row.gotLoop) {
				row.times.push(time(['--concurrency', String(row.gotLoop)], path.join(root, 'bench/got-loop.js')));
				continue;
			}
			if (row.workers === 0) {
				row.times.push(time(['sweep', '--store', path.join(tmp, `level-${rep}`), '-q', '--audit', '0', '--per-host', '2']));
				continue;
			}
			const store = `redis://127.0.0.1:${redisPort}/0?prefix=b${++prefix}:`;
			const workers = await startWorkers(store, row.workers);
			try {
				row.times.push(time(['sweep', '--store', store, '--workers', '-q', '--audit', '0', '--per-host', '2']));
			} finally {
				for (const worker of workers) worker.kill('SIGTERM');
			}
		}
	}
	const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
	const one = median(rows[1].times);
	const loops = rows.filter((row) => row.gotLoop).map((row) => median(row.times));
	console.log(`${urls.length} URLs on 100 origins answering 100 ms late, --per-host 2, first sweep; ${reps} repetitions, median seconds\n`);
	console.log('| run | median s | each repetition | URLs/s | speed vs 1 worker |');
	console.log('|---|---:|---|---:|---:|');
	for (const row of rows) {
		const m = median(row.times);
		console.log(
			`| ${row.name} | ${m.toFixed(2)} | ${row.times.map((t) => t.toFixed(2)).join(', ')} | ${Math.round(urls.length / m)} | ${(one / m).toFixed(2)}x |`,
		);
	}
	console.log(`\nThe got loop's own gain from 32 to 128 in flight: ${(loops[0] / loops[1]).toFixed(2)}x.`);
} finally {
	redis.kill('SIGTERM');
	origins.kill();
	rmSync(tmp, { recursive: true, force: true });
}
