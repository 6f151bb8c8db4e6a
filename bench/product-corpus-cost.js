// What reading the offer costs on the real-page corpus (issue 37's "within 1.2x of parsing
// the HTML alone"): `npm run build && REVISIT_PRODUCT_CORPUS=DIR node bench/product-corpus-cost.js [--reps 7]`.
// One core, in process: each page parsed alone, then parsed and its offer read (with its
// URL, as the sweep does), the two taking turns page by page; the sums over the corpus,
// the median of --reps runs, and the pages that cost the most.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { loadCorpus } from './lib/product-corpus.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({ options: { dir: { type: 'string' }, reps: { type: 'string', default: '7' } } });
const { readOffer } = await import(pathToFileURL(path.join(ROOT, 'dist/product/offer.js')).href);
const { dir, pages } = loadCorpus(values.dir);
const reps = Number(values.reps);

const ms = (work) => {
	const start = process.hrtime.bigint();
	work();
	return Number(process.hrtime.bigint() - start) / 1e6;
};
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];

// A warm-up run, not counted: the JIT and the caches.
for (const page of pages) readOffer(parseDocument(page.html), { url: page.truth.url });
const runs = [];
const perPage = pages.map(() => []);
for (let r = 0; r < reps; r++) {
	let parse = 0;
	let read = 0;
	pages.forEach((page, i) => {
		const alone = ms(() => parseDocument(page.html));
		const both = ms(() => readOffer(parseDocument(page.html), { url: page.truth.url }));
		parse += alone;
		read += both;
		perPage[i].push(both / alone);
	});
	runs.push({ parse, read });
}
const ratio = median(runs.map((run) => run.read / run.parse));
console.log(`${pages.length} pages (${dir}), ${reps} runs, node ${process.version}`);
console.log(`parse alone ${median(runs.map((run) => run.parse)).toFixed(0)} ms, parse + readOffer ${median(runs.map((run) => run.read)).toFixed(0)} ms a run: **${ratio.toFixed(2)}x** (target <= 1.2x)`);
const worst = pages.map((page, i) => [page.truth.file, median(perPage[i])]).sort((a, b) => b[1] - a[1]).slice(0, 5);
console.log(`the pages that cost the most: ${worst.map(([file, r]) => `${file} ${r.toFixed(2)}x`).join(', ')}`);
