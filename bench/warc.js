// The cost of WARC output: `npm run build && node bench/warc.js [--pages 10000] [--reps 3]`.
//
// Forks bench/origin.js (N pages of ~4 KB, strong ETags) and runs, per repetition and in
// turn, the same two sweeps with and without `--warc`: a first sweep on a fresh store
// (every body read: a request and a response record per URL) and a second one (all 304:
// a revisit record per URL). Each row's store and WARC are its own. Reports the median
// URLs per second of each and the WARC run's speed against the run without it, plus the
// bytes written per URL.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ONE_ORIGIN, startOrigin, timedRun } from './lib/sweep-bench.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '10000' }, reps: { type: 'string', default: '3' } } });
const pages = Number(values.pages);
const reps = Number(values.reps);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'revisit-warc-bench-'));
const origin = await startOrigin(pages, tmp);
const sweep = (store, extra) => pages / timedRun(origin.urlsFile, ['sweep', '--store', store, ...ONE_ORIGIN, ...extra]).seconds;

const rows = { first: { plain: [], warc: [] }, second: { plain: [], warc: [] } };
const bytes = { first: 0, second: 0 };
try {
	for (let rep = 0; rep < reps; rep++) {
		const dir = path.join(tmp, String(rep));
		const warc = (name) => ['--warc', path.join(dir, `${name}.warc.gz`)];
		rows.first.plain.push(sweep(path.join(dir, 'plain'), []));
		rows.first.warc.push(sweep(path.join(dir, 'warc'), warc('first')));
		rows.second.plain.push(sweep(path.join(dir, 'plain'), []));
		rows.second.warc.push(sweep(path.join(dir, 'warc'), warc('second')));
		bytes.first = statSync(path.join(dir, 'first.warc.gz')).size;
		bytes.second = statSync(path.join(dir, 'second.warc.gz')).size;
	}
	const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
	console.log(`${pages} pages of ~4 KB on one origin, --concurrency 24 --per-host 24; ${reps} repetitions, median URLs/s\n`);
	console.log('| sweep | without --warc | with --warc | ratio | WARC bytes per URL |');
	console.log('|---|---:|---:|---:|---:|');
	for (const [name, label] of [
		['first', 'first (every body read: request + response)'],
		['second', 'second (all 304: one revisit each)'],
	]) {
		const plain = median(rows[name].plain);
		const warc = median(rows[name].warc);
		console.log(`| ${label} | ${Math.round(plain)} | ${Math.round(warc)} | ${(warc / plain).toFixed(2)}x | ${Math.round(bytes[name] / pages)} |`);
	}
} finally {
	origin.kill();
	rmSync(tmp, { recursive: true, force: true });
}
