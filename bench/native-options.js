// What got 14's per-request options literal costs, against revisit's version of it:
//   node bench/native-options.js [--calls 20000] [--reps 5]      (after `npm run build`)
//
// Builds one got Options for an http: URL and one for an https: URL (as revisit's client
// makes them: an agent, a user agent, rejectUnauthorized), then calls
// `createNativeRequestOptions` --calls times with got's own method and with the one
// revisit's init hook installs (src/net/http/native-options.ts), interleaved, --reps times.
// Reports the median time per call (wall clock, so the garbage collection the calls cause
// is included) and the bytes allocated per call (heap growth over 1,000 calls kept alive).
// In-process, no network.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { parseArgs } from 'node:util';
import { Options } from 'got';
import { leanNativeOptions } from '../dist/net/http/native-options.js';

// Bytes per call need a collection before each count: run again with --expose-gc if needed.
if (typeof globalThis.gc !== 'function') {
	const again = spawnSync(process.execPath, ['--expose-gc', ...process.argv.slice(1)], { stdio: 'inherit' });
	process.exit(again.status ?? 1);
}

const { values } = parseArgs({ options: { calls: { type: 'string', default: '20000' }, reps: { type: 'string', default: '5' } } });
const calls = Number(values.calls);
const reps = Number(values.reps);

const make = (url, lean) => {
	const options = new Options(url, {
		agent: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
		headers: { 'user-agent': 'revisit-bench', 'if-none-match': '"abc"' },
		https: { rejectUnauthorized: true },
	});
	if (lean) leanNativeOptions({}, options);
	return options;
};

const time = (options) => {
	const started = process.hrtime.bigint();
	let last;
	for (let i = 0; i < calls; i++) last = options.createNativeRequestOptions();
	return { ns: Number(process.hrtime.bigint() - started) / calls, keys: Object.keys(last).length };
};

const bytes = (options) => {
	globalThis.gc?.();
	const before = process.memoryUsage().heapUsed;
	const kept = [];
	for (let i = 0; i < 1000; i++) kept.push(options.createNativeRequestOptions());
	return (process.memoryUsage().heapUsed - before) / kept.length;
};

const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
const rows = [];
for (const url of ['http://127.0.0.1:8080/p/1', 'https://127.0.0.1:8443/p/1']) {
	const contenders = { got: make(url, false), revisit: make(url, true) };
	const ns = { got: [], revisit: [] };
	let keys = {};
	for (const options of Object.values(contenders)) time(options); // warm-up
	for (let rep = 0; rep < reps; rep++) {
		for (const [name, options] of rep % 2 ? Object.entries(contenders).reverse() : Object.entries(contenders)) {
			const { ns: one, keys: count } = time(options);
			ns[name].push(one);
			keys = { ...keys, [name]: count };
		}
	}
	for (const name of Object.keys(contenders))
		rows.push(`| ${new URL(url).protocol} | ${name} | ${median(ns[name]).toFixed(0)} | ${bytes(contenders[name]).toFixed(0)} | ${keys[name]} |`);
}
process.stdout.write(`bench/native-options.js — node ${process.version}, ${calls} calls × ${reps} reps, interleaved\n\n`);
process.stdout.write('| URL | createNativeRequestOptions | ns per call (median) | bytes per call | keys |\n|---|---|---:|---:|---:|\n');
process.stdout.write(`${rows.join('\n')}\n`);
