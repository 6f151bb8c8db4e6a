// A whole sweep with --product (issue 28): `npm run build && node bench/product-sweep.js
// [--pages 200] [--seed 1] [--reps 3] [--validators none,etag]`.
//
// A forked shop (bench/lib/product-origin.js) serves --pages product pages built from the four
// in bench/data/product/, each with its own seeded price and with noise that moves on every
// answer (CSRF token, app-state token, timestamp); 'none' sends no validators (most shops),
// 'etag' a strong ETag per product and price. Side by side, in an order that rotates per
// repetition, each way on a new store (run 1) and again on the same store (run 2, only the
// noise moved):
//   got      bench/got-loop.js --concurrency 4: GET every page, no store (4 = revisit's --per-host)
//   plain    node bin/revisit.js sweep -q --store DIR, the tool's defaults, no rules
//   product  the same with --product
// Wall-clock pages/s (whole process, start-up included), medians of --reps; what run 2 printed
// and its exit status (3: the churn guard held a host back). Then a seeded 5% of the prices
// move and both stores of the last repetition sweep once more (run 3): --product must print
// exactly the URLs whose price moved.
import { fork, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeChild } from './lib/child.js';
import { CLI, ROOT } from './lib/sweep-bench.js';

const { values } = parseArgs({
	options: {
		pages: { type: 'string', default: '200' },
		seed: { type: 'string', default: '1' },
		reps: { type: 'string', default: '3' },
		validators: { type: 'string', default: 'none,etag' },
	},
});
const pages = Number(values.pages);
const seed = Number(values.seed);
const reps = Number(values.reps);
const variants = values.validators.split(',');
if (!(pages >= 20 && Number.isInteger(seed) && reps > 0 && variants.every((v) => v === 'none' || v === 'etag'))) {
	throw new Error('--pages N (at least 20), --seed INTEGER, --reps N, --validators none,etag');
}

/** Runs `node SCRIPT ARGS < urlsFile`: wall seconds, the URLs printed, the exit status. */
function run(urlsFile, script, args) {
	const stdin = openSync(urlsFile, 'r');
	const started = process.hrtime.bigint();
	const result = spawnSync(process.execPath, [script, ...args], { stdio: [stdin, 'pipe', 'pipe'], maxBuffer: 1 << 28 });
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	closeSync(stdin);
	// 3 is the churn guard holding a host's changes back: an answer, not a failure.
	if (result.status !== 0 && result.status !== 3) throw new Error(`${path.basename(script)} ${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
	const urls = result.stdout
		.toString()
		.split('\n')
		.filter(Boolean)
		.map((line) => line.split(/\s/)[0]);
	return { seconds, urls, status: result.status, stderr: result.stderr.toString().trim() };
}

const WAYS = {
	got: (store) => [
		path.join(ROOT, 'bench/got-loop.js'),
		['--concurrency', '4', ...(store.etags ? ['--etags', path.join(mkdirSync(store.dir, { recursive: true }) ?? store.dir, 'etags.json')] : [])],
	],
	plain: (store) => [CLI, ['sweep', '-q', '--store', store.dir]],
	product: (store) => [CLI, ['sweep', '-q', '--store', store.dir, '--product']],
};
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const rate = (seconds) => Math.round(pages / seconds);

console.log(
	`${pages} product pages, seed ${seed}, ${reps} repetitions (rotating order), node ${process.version}, load average ${os
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')}\n`,
);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'revisit-product-sweep-'));
try {
	for (const validators of variants) {
		const origin = fork(path.join(ROOT, 'bench/lib/product-origin.js'), [String(pages), String(seed), validators], { stdio: 'ignore' });
		const port = await new Promise((resolve) => origin.on('message', (message) => message.type === 'ready' && resolve(message.port)));
		const urlsFile = path.join(tmp, `urls-${validators}.txt`);
		writeFileSync(urlsFile, Array.from({ length: pages }, (_, n) => `http://127.0.0.1:${port}/p/${n}\n`).join(''));
		const names = Object.keys(WAYS);
		const results = Object.fromEntries(names.map((name) => [name, { run1: [], run2: [] }]));
		const stores = {};
		try {
			for (let rep = 0; rep < reps; rep++) {
				for (const name of [...names.slice(rep % names.length), ...names.slice(0, rep % names.length)]) {
					const store = { dir: path.join(tmp, `${validators}-${name}-${rep}`), etags: validators === 'etag' };
					const [script, args] = WAYS[name](store);
					results[name].run1.push(run(urlsFile, script, args));
					results[name].run2.push(run(urlsFile, script, args));
					if (rep === reps - 1) stores[name] = store;
				}
			}
			const title = validators === 'none' ? 'no validators (every answer a 200 with new noise)' : 'strong ETags (run 2 answers 304)';
			console.log(`### ${title}\n`);
			console.log('| way | run 1 pages/s | run 2 pages/s | run 1 s (each) | run 2 s (each) | run 2 printed | run 2 exit |');
			console.log('|---|---:|---:|---|---|---:|---|');
			for (const name of names) {
				const { run1, run2 } = results[name];
				const s1 = run1.map((r) => r.seconds);
				const s2 = run2.map((r) => r.seconds);
				const printed = [...new Set(run2.map((r) => r.urls.length))].join('/');
				const exits = [...new Set(run2.map((r) => r.status))].join('/');
				console.log(
					`| ${name} | ${rate(median(s1))} | ${rate(median(s2))} | ${s1.map((s) => s.toFixed(2)).join(', ')} | ` +
						`${s2.map((s) => s.toFixed(2)).join(', ')} | ${printed} | ${exits} |`,
				);
			}
			const ratio = (a, b, runKey) => (median(results[b][runKey].map((r) => r.seconds)) / median(results[a][runKey].map((r) => r.seconds))).toFixed(2);
			console.log(
				`\npages/s ratios: product/plain run 1 ${ratio('product', 'plain', 'run1')}, run 2 ${ratio('product', 'plain', 'run2')}; ` +
					`product/got run 1 ${ratio('product', 'got', 'run1')}, run 2 ${ratio('product', 'got', 'run2')}`,
			);
			const held = results.plain.run2.find((r) => r.status === 3);
			if (held) console.log(`plain run 2 stderr: ${held.stderr.split('\n').slice(-2).join(' / ')}`);

			// Run 3: a seeded 5% of the prices move; both stores of the last repetition sweep again.
			origin.send({ type: 'change', fraction: 0.05, seed: seed * 7919 + 1 });
			const moved = await new Promise((resolve) => origin.on('message', (message) => message.type === 'changed' && resolve(message.paths)));
			const expected = moved.map((p) => `http://127.0.0.1:${port}${p}`).sort();
			for (const name of ['plain', 'product']) {
				const third = run(urlsFile, ...WAYS[name](stores[name]));
				const got = [...third.urls].sort();
				const exact = got.length === expected.length && got.every((url, i) => url === expected[i]);
				console.log(
					`run 3 after ${moved.length} prices moved: ${name} printed ${got.length} URLs, exit ${third.status}` +
						(exact ? ', exactly those whose price moved' : `, ${got.filter((u) => expected.includes(u)).length} of them among those whose price moved`),
				);
			}
			console.log('');
		} finally {
			await closeChild(origin);
		}
	}
} finally {
	rmSync(tmp, { recursive: true, force: true });
}
