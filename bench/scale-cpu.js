// CPU-bound scaling: the all-304 second sweep, side by side in one run.
//
//   npm run build && node bench/scale-cpu.js [--pages 20000] [--reps 3] [--redis] [--candidate DIR]
//
// Forks bench/origin.js (N pages with strong ETags, its own process) and times, per
// repetition and in turn: the bare got loop (bench/got-loop.js, If-None-Match from a
// Map), `revisit sweep` on LevelDB, `revisit sweep --local-workers 2` on LevelDB and,
// with --redis, `revisit sweep --workers` on a Redis store with one `revisit worker`.
// Each revisit row has its own store, filled by one unmeasured first sweep, so every
// measured sweep is all 304s. One origin stands for many hosts: --per-host equals
// --concurrency (24, the default concurrency), as in bench/run.js. Reports the median
// wall-clock seconds from spawn to exit and each row's speed against the plain sweep
// and the got loop. --candidate DIR (with --redis): a second build (DIR/bin/revisit.js)
// runs the fleet row too, with its own worker on its own prefix, for an A/B in one run.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort, ONE_ORIGIN, startOrigin, timedRun } from './lib/sweep-bench.js';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({
	options: {
		pages: { type: 'string', default: '20000' },
		reps: { type: 'string', default: '3' },
		redis: { type: 'boolean', default: false },
		candidate: { type: 'string' },
	},
});
const pages = Number(values.pages);
const reps = Number(values.reps);
const cli = path.join(root, 'bin/revisit.js');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'revisit-scale-cpu-'));
const origin = await startOrigin(pages, tmp);
const urls = readFileSync(origin.urlsFile, 'utf8');
const common = ONE_ORIGIN;
const children = [];

// Two got loops at once, each on half the URLs with half the concurrency: what two
// independent processes make of this machine's cores, the ceiling for any got-based client.
const halves = [0, 1].map((half) => {
	const file = path.join(tmp, `half-${half}.txt`);
	writeFileSync(
		file,
		urls
			.split('\n')
			.filter(Boolean)
			.filter((_, i) => i % 2 === half)
			.join('\n') + '\n',
	);
	return { file, args: [path.join(root, 'bench/got-loop.js'), '--concurrency', '12', '--etags', path.join(tmp, `etags-${half}.json`)] };
});
const runPair = () => {
	const started = process.hrtime.bigint();
	const children = halves.map(({ file, args }) => spawn(process.execPath, args, { stdio: [openSync(file, 'r'), 'pipe', 'ignore'] }));
	return Promise.all(
		children.map(
			(child) =>
				new Promise((resolve, reject) => {
					let lines = 0;
					child.stdout.on('data', (chunk) => (lines += chunk.toString().split('\n').length - 1));
					child.on('exit', (code) => (code === 0 ? resolve(lines) : reject(new Error(`got loop pair: exit ${code}`))));
				}),
		),
	).then((counts) => ({ seconds: Number(process.hrtime.bigint() - started) / 1e9, changed: counts[0] + counts[1] }));
};

const run = (args) => {
	const { seconds, lines } = timedRun(origin.urlsFile, args.slice(1), args[0]);
	return { seconds, changed: lines };
};

const rows = [
	{ name: 'got loop (bench/got-loop.js)', args: [path.join(root, 'bench/got-loop.js'), '--concurrency', '24', '--etags', path.join(tmp, 'etags.json')] },
	{ name: 'two got loops at once, half the URLs each', pair: true },
	{ name: 'revisit sweep (LevelDB)', args: [cli, 'sweep', '--store', path.join(tmp, 'plain'), ...common] },
	{ name: 'revisit sweep --local-workers 2 (LevelDB)', args: [cli, 'sweep', '--store', path.join(tmp, 'local'), '--local-workers', '2', ...common] },
];
if (values.redis) {
	const redisPort = await freePort();
	children.push(
		spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmp], { stdio: 'ignore' }),
	);
	await new Promise((resolve) => setTimeout(resolve, 500));
	const store = `redis://127.0.0.1:${redisPort}/0`;
	children.push(spawn(process.execPath, [cli, 'worker', '--store', store], { stdio: 'ignore' }));
	rows.push({ name: 'revisit sweep --workers, 1 worker (Redis)', args: [cli, 'sweep', '--store', store, '--workers', ...common] });
	if (values.candidate) {
		const other = path.join(path.resolve(values.candidate), 'bin/revisit.js');
		const candidateStore = `${store}?prefix=candidate:`;
		children.push(spawn(process.execPath, [other, 'worker', '--store', candidateStore], { stdio: 'ignore' }));
		rows.push({
			name: `candidate (${values.candidate}): --workers, 1 worker (Redis)`,
			args: [other, 'sweep', '--store', candidateStore, '--workers', ...common],
		});
	}
}

try {
	const measure = (row) => (row.pair ? runPair() : run(row.args));
	for (const row of rows) row.first = await measure(row);
	for (const row of rows) row.times = [];
	for (let rep = 0; rep < reps; rep++) {
		for (const row of rows) {
			const { seconds, changed } = await measure(row);
			if (changed !== 0) throw new Error(`${row.name}: the second sweep printed ${changed} URLs`);
			row.times.push(seconds);
		}
	}
	const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
	const plain = median(rows.find((row) => row.name.startsWith('revisit sweep (')).times);
	const loop = median(rows[0].times);
	console.log(`${pages} pages, all 304, ${reps} repetitions interleaved; median seconds; speed = time of the reference / time of the row\n`);
	console.log('| run | median s | each repetition | speed vs plain sweep | speed vs got loop |');
	console.log('|---|---:|---|---:|---:|');
	for (const row of rows) {
		const m = median(row.times);
		console.log(
			`| ${row.name} | ${m.toFixed(2)} | ${row.times.map((t) => t.toFixed(2)).join(', ')} | ${(plain / m).toFixed(2)}x | ${(loop / m).toFixed(2)}x |`,
		);
	}
} finally {
	for (const child of children) child.kill('SIGTERM');
	origin.kill();
	rmSync(tmp, { recursive: true, force: true });
}
