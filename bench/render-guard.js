// What the render guard costs (issue 35): `npm run build && node bench/render-guard.js
// [--pages 100] [--seeds 1,2] [--reps 3]`. Needs Debian's chromium (or $REVISIT_BROWSER).
//
// The forked shop of bench/lib/spa-origin.js serves --pages SPA pages (/spa/N: a shell whose
// script fetches /app.js and /api/price/N). Each page's shell is fetched once; then the same
// pages are rendered by revisit's renderer (dist/net/render/renderer.js) at the default
// --render-concurrency (2), --render-timeout and --render-memory, ready at `.price`, two ways
// side by side, in an order that rotates per repetition, each with a browser of its own:
//   guarded    as revisit renders: every request through the guard proxy, popups closed,
//              window.open and WebRTC gone, renderers' memory watched
//   unguarded  the same browser sending directly, none of that (an option only this bench sets)
// Wall-clock pages/s, the browser's launch excluded (one page rendered first); medians of --reps.
import { fork } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeChild } from './lib/child.js';
import { ask } from './lib/render-run.js';
import { ROOT } from './lib/sweep-bench.js';

const { values } = parseArgs({
	options: { pages: { type: 'string', default: '100' }, seeds: { type: 'string', default: '1,2' }, reps: { type: 'string', default: '3' } },
});
const pages = Number(values.pages);
const seeds = values.seeds.split(',').map(Number);
const reps = Number(values.reps);
if (!(pages >= 10 && seeds.every(Number.isInteger) && reps > 0)) throw new Error('--pages N (at least 10), --seeds 1,2, --reps N');

const { createRenderer } = await import(path.join(ROOT, 'dist/net/render/renderer.js'));
const browserPath = process.env.REVISIT_BROWSER || '/usr/bin/chromium';
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function renderAll(base, shells, unguarded) {
	const renderer = createRenderer({ browserPath, concurrency: 2, unguarded });
	try {
		const one = (n) => renderer.render(`${base}/spa/${n}`, shells[n], 'text/html', { timeoutMs: 15_000, waitFor: ['.price'] });
		await one(0);
		const started = performance.now();
		const done = await Promise.all(shells.map((_, n) => one(n)));
		const seconds = (performance.now() - started) / 1000;
		if (!done.every((page) => /<p class="price">[\d.]+/.test(page.html))) throw new Error('a page rendered without its price');
		return pages / seconds;
	} finally {
		await renderer.close();
	}
}

console.log(
	`# render-guard: ${pages} SPA pages, --render-concurrency 2, seeds ${seeds.join(',')}, ${reps} reps; node ${process.version}, ${new Date().toISOString()}`,
);
console.log('| seed | guarded pages/s | unguarded pages/s | guarded / unguarded |');
console.log('|---|---|---|---|');
for (const seed of seeds) {
	const origin = fork(path.join(ROOT, 'bench/lib/spa-origin.js'), [String(pages), String(seed)], { stdio: 'ignore' });
	try {
		const { port } = await new Promise((resolve) => origin.once('message', resolve));
		const base = `http://127.0.0.1:${port}`;
		const shells = await Promise.all(Array.from({ length: pages }, async (_, n) => Buffer.from(await (await fetch(`${base}/spa/${n}`)).arrayBuffer())));
		const rates = { guarded: [], unguarded: [] };
		for (let rep = 0; rep < reps; rep++) {
			const order = rep % 2 === 0 ? ['guarded', 'unguarded'] : ['unguarded', 'guarded'];
			for (const way of order) rates[way].push(await renderAll(base, shells, way === 'unguarded'));
		}
		const guarded = median(rates.guarded);
		const unguarded = median(rates.unguarded);
		console.log(`| ${seed} | ${guarded.toFixed(2)} | ${unguarded.toFixed(2)} | ${(guarded / unguarded).toFixed(2)} |`);
		await ask(origin, { type: 'reset' });
	} finally {
		await closeChild(origin);
	}
}
