// What rendering costs (issue 29): `npm run build && node bench/render.js [--pages 200]
// [--seeds 1,2] [--reps 3] [--parts rate,revalidate]`. Needs Debian's chromium (or
// $REVISIT_BROWSER).
//
// A forked shop (bench/lib/spa-origin.js) serves --pages SPA pages (/spa/N: a shell whose
// script fetches /api/price/N) and the same products server-rendered (/static/N, about the
// size of a rendered shell); everything with strong ETags and 304s. The tool's default
// flags, with the content rule `--select .price` and `--ndjson --all` (to count renders).
//
// rate: side by side, in an order that rotates per repetition, each on a new store (run 1):
//   got        bench/got-loop.js --concurrency 4 over the static pages (no store)
//   plain      sweep --select .price over the static pages
//   plain-auto the same with --render auto (the static page answers: no browser)
//   render     sweep --select .price --render auto over the SPA pages: every one rendered
//   render-c4  the same with --render-concurrency 4
// Wall-clock pages/s (start-up and the browser's launch included), medians of --reps; peak
// RSS of the revisit process (VmHWM) and of its browser (the summed VmRSS and Pss of its
// descendant processes, polled every 200 ms).
//
// revalidate: on a new store, run 1, then a seeded 5% of the prices move before run 2 and
// again before run 3; once with --render auto (data requests revalidated with got) and once
// with --render always (every page rendered every run: what a browser-based monitor does).
// Per run: requests the origin answered, bytes on the wire, wall time, renders, whether
// the URLs reported changed are exactly those whose price moved, and how often each moved
// price's API call was fetched (its 200s over the prices moved: 1 once the browser is
// handed got's answer).
import { fork } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeChild } from './lib/child.js';
import { ask, statsDelta, timed } from './lib/render-run.js';
import { CLI, ROOT } from './lib/sweep-bench.js';

const { values } = parseArgs({
	options: {
		pages: { type: 'string', default: '200' },
		seeds: { type: 'string', default: '1,2' },
		reps: { type: 'string', default: '3' },
		parts: { type: 'string', default: 'rate,revalidate' },
	},
});
const pages = Number(values.pages);
const seeds = values.seeds.split(',').map(Number);
const reps = Number(values.reps);
const parts = values.parts.split(',');
if (!(pages >= 20 && seeds.every(Number.isInteger) && reps > 0 && parts.every((p) => p === 'rate' || p === 'revalidate'))) {
	throw new Error('--pages N (at least 20), --seeds 1,2, --reps N, --parts rate,revalidate');
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const mb = (kb) => (kb / 1024).toFixed(0);
const perSecond = (seconds) => (pages / seconds >= 10 ? Math.round(pages / seconds) : (pages / seconds).toFixed(1));
const kB = (bytes) => (bytes / 1024).toFixed(0);
const RULE = ['--select', '.price'];
const sweep = (dir, ...extra) => [CLI, ['sweep', '--store', dir, '--ndjson', '--all', ...RULE, ...extra]];
const WAYS = {
	got: { urls: 'static', args: () => [path.join(ROOT, 'bench/got-loop.js'), ['--concurrency', '4']] },
	plain: { urls: 'static', args: (dir) => sweep(dir) },
	'plain-auto': { urls: 'static', args: (dir) => sweep(dir, '--render', 'auto') },
	render: { urls: 'spa', args: (dir) => sweep(dir, '--render', 'auto') },
	'render-c4': { urls: 'spa', args: (dir) => sweep(dir, '--render', 'auto', '--render-concurrency', '4') },
};

async function rate(origin, files, tmp, seed) {
	const names = Object.keys(WAYS);
	const results = Object.fromEntries(names.map((name) => [name, []]));
	for (let rep = 0; rep < reps; rep++) {
		for (const name of [...names.slice(rep % names.length), ...names.slice(0, rep % names.length)]) {
			const [script, args] = WAYS[name].args(path.join(tmp, `rate-${seed}-${name}-${rep}`));
			results[name].push(await timed(files[WAYS[name].urls], script, args));
		}
	}
	console.log(`### seed ${seed}: run 1 on a new store, ${pages} pages, medians of ${reps}\n`);
	console.log('| way | pages | pages/s | s (each) | rendered | revisit peak RSS MB | browser peak RSS MB (sum) | browser peak Pss MB | browser processes |');
	console.log('|---|---|---:|---|---:|---:|---:|---:|---:|');
	for (const name of names) {
		const runs = results[name];
		const s = runs.map((r) => r.seconds);
		const rendered = [...new Set(runs.map((r) => r.rows.filter((row) => row.rendered).length))].join('/');
		const browser = runs.some((r) => r.tree.processes > 0);
		console.log(
			`| ${name} | ${WAYS[name].urls} | ${perSecond(median(s))} | ${s.map((x) => x.toFixed(2)).join(', ')} | ${name === 'got' ? '-' : rendered} | ` +
				`${mb(median(runs.map((r) => r.rss.hwm)))} | ${browser ? mb(median(runs.map((r) => r.tree.rss))) : '-'} | ` +
				`${browser ? mb(median(runs.map((r) => r.tree.pss))) : '-'} | ${Math.max(...runs.map((r) => r.tree.processes))} |`,
		);
	}
	const sec = (name) => median(results[name].map((r) => r.seconds));
	console.log(
		`\nrender/plain wall ${(sec('render') / sec('plain')).toFixed(1)}x (c4 ${(sec('render-c4') / sec('plain')).toFixed(1)}x), ` +
			`render/got ${(sec('render') / sec('got')).toFixed(1)}x; plain-auto/plain ${(sec('plain-auto') / sec('plain')).toFixed(2)}; ` +
			(`a render costs ${((1000 * (sec('render') - sec('plain'))) / pages).toFixed(1)} ms wall more than a plain check (c4 ` +
				`${((1000 * (sec('render-c4') - sec('plain'))) / pages).toFixed(1)} ms), browser launch included\n`),
	);
}

async function revalidate(origin, files, tmp, seed) {
	console.log(`### seed ${seed}: ${pages} SPA pages, 5% of the prices moved before runs 2 and 3\n`);
	console.log(
		'| way | run | s | requests | 200 / 304 | by kind | bytes out kB | bytes in kB | ' +
			'renders | reported | exactly the moved | API requests per moved price | exit |',
	);
	console.log('|---|---:|---:|---:|---|---|---:|---:|---:|---:|---|---:|---:|');
	const row = (way, runNo, run, delta, changed, expected) => {
		const by = (status) =>
			Object.entries(delta.requests)
				.filter(([key]) => key.endsWith(` ${status}`))
				.reduce((a, [, n]) => a + n, 0);
		const kinds = Object.entries(delta.requests)
			.map(([key, n]) => `${key}: ${n}`)
			.join(', ');
		const exact = expected && changed.length === expected.length && changed.every((p, i) => p === expected[i]);
		// A moved price is one moved data request: its API call answers 200 (an unmoved one 304) as often as it was fetched.
		const perMoved = expected?.length ? ((delta.requests['api 200'] ?? 0) / expected.length).toFixed(2) : '-';
		console.log(
			`| ${way} | ${runNo} | ${run.seconds.toFixed(2)} | ${delta.total} | ${by(200)} / ${by(304)} | ${kinds} | ${kB(delta.bytesOut)} | ` +
				`${kB(delta.bytesIn)} | ${run.rows.filter((r) => r.rendered).length} | ${changed.length} | ` +
				(!expected ? '-' : exact ? `yes (${expected.length})` : `no: ${changed.filter((p) => expected.includes(p)).length} of ${expected.length}`) +
				` | ${perMoved} | ${run.status} |`,
		);
	};
	const pathsOf = (rows) => rows.map((r) => new URL(r.url).pathname).sort();
	const hashes = (run) => new Map(run.rows.map((r) => [new URL(r.url).pathname, r.hash]));
	// One run: the prices moved first (runs 2 and 3), then the sweep, with the origin's counters around it.
	const step = async (runNo, dir, mode) => {
		const expected = runNo === 1 ? undefined : (await ask(origin, { type: 'change', fraction: 0.05, seed: seed * 7919 + runNo }, 'changed')).paths.sort();
		const before = await ask(origin, { type: 'stats' });
		const run = await timed(files.spa, ...sweep(dir, '--render', mode));
		return { run, expected, delta: statsDelta(before, await ask(origin, { type: 'stats' })) };
	};

	// auto: one store for the three runs; its state after run 1 is also always's.
	await ask(origin, { type: 'reset' });
	const autoDir = path.join(tmp, `revalidate-${seed}-auto`);
	const first = await step(1, autoDir, 'auto');
	const alwaysDir = path.join(tmp, `revalidate-${seed}-always`);
	cpSync(autoDir, alwaysDir, { recursive: true });
	row('auto', 1, first.run, first.delta, pathsOf(first.run.rows.filter((r) => r.changed)));
	for (const runNo of [2, 3]) {
		const { run, expected, delta } = await step(runNo, autoDir, 'auto');
		row('auto', runNo, run, delta, pathsOf(run.rows.filter((r) => r.changed)), expected);
	}
	// always, on a copy of auto's store after run 1, the same prices moving.
	await ask(origin, { type: 'reset' });
	for (const runNo of [2, 3]) {
		const { run, expected, delta } = await step(runNo, alwaysDir, 'always');
		row('always', runNo, run, delta, pathsOf(run.rows.filter((r) => r.changed)), expected);
	}
	// off: what a browser-based monitor does, every page downloaded and rendered every run
	// (--render always on a new store each run); its changes are the rendered hashes that
	// differ from the run before (run 1 is auto's).
	await ask(origin, { type: 'reset' });
	let previous = hashes(first.run);
	for (const runNo of [2, 3]) {
		const { run, expected, delta } = await step(runNo, path.join(tmp, `revalidate-${seed}-off-${runNo}`), 'always');
		const now = hashes(run);
		row(
			'off (new store, always)',
			runNo,
			run,
			delta,
			[...now]
				.filter(([p, hash]) => previous.get(p) !== hash)
				.map(([p]) => p)
				.sort(),
			expected,
		);
		previous = now;
	}
	console.log('');
}

console.log(
	`bench/render.js: ${pages} pages, seeds ${seeds.join(',')}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')}, ${new Date().toISOString()}\n`,
);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'revisit-render-bench-'));
try {
	for (const seed of seeds) {
		const origin = fork(path.join(ROOT, 'bench/lib/spa-origin.js'), [String(pages), String(seed)], { stdio: 'ignore' });
		const port = await new Promise((resolve) => origin.on('message', (message) => message.type === 'ready' && resolve(message.port)));
		const files = {};
		for (const kind of ['spa', 'static']) {
			files[kind] = path.join(tmp, `urls-${kind}.txt`);
			writeFileSync(files[kind], Array.from({ length: pages }, (_, n) => `http://127.0.0.1:${port}/${kind}/${n}\n`).join(''));
		}
		try {
			if (parts.includes('rate')) await rate(origin, files, tmp, seed);
			if (parts.includes('revalidate')) await revalidate(origin, files, tmp, seed);
		} finally {
			await closeChild(origin);
		}
	}
} finally {
	rmSync(tmp, { recursive: true, force: true });
}
