// What reading the offer costs on the real-page corpus (issue 37's "within 1.2x of parsing
// the HTML alone"): `npm run build && REVISIT_PRODUCT_CORPUS=DIR node bench/product-corpus-cost.js [--reps 7]`.
// One core, in process: each page parsed alone (htmlparser2's parseDocument, and the sweep's
// own parseHtml, src/domain/html/parse.ts), then parsed
// and its offer read as the sweep does it (parseWithMarkup, then readOffer with the page's
// URL and the markup found while parsing), the two taking turns page by page, then the
// corpus whole each way in turn on CPU time (what others' load on the machine skews least); the sums over the corpus,
// the median of --reps runs, and the pages that cost the most. With --against DIR (an earlier
// build's dist/), its reader in the same turns.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { loadCorpus } from './lib/product-corpus.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({ options: { dir: { type: 'string' }, reps: { type: 'string', default: '7' }, against: { type: 'string' } } });
const { readOffer } = await import(pathToFileURL(path.join(ROOT, 'dist/domain/product/offer.js')).href);
const { parseWithMarkup } = await import(pathToFileURL(path.join(ROOT, 'dist/domain/product/parse.js')).href);
// The sweep's own parse now (src/domain/html/parse.ts): parseDocument's DOM at about half its cost. A page without --product is parsed with it.
const { parseHtml } = await import(pathToFileURL(path.join(ROOT, 'dist/domain/html/parse.js')).href);
const sweepRead = (page) => {
	const { document, markup } = parseWithMarkup(page.html);
	return readOffer(document, { url: page.truth.url }, markup);
};
// --against DIR: another build's dist/ (an earlier commit's), its offer read measured in the same turns.
// As that build's sweep read it: with its parseWithMarkup where it has one (from f2c150f on).
const against = values.against && (await import(pathToFileURL(path.join(path.resolve(values.against), 'domain/product/offer.js')).href)).readOffer;
const againstParse =
	values.against && existsSync(path.join(path.resolve(values.against), 'domain/product/parse.js'))
		? (await import(pathToFileURL(path.join(path.resolve(values.against), 'domain/product/parse.js')).href)).parseWithMarkup
		: (html) => ({ document: parseDocument(html) });
const againstRead = (page) => {
	const { document, markup } = againstParse(page.html);
	return against(document, { url: page.truth.url }, markup);
};
const { dir, pages } = loadCorpus(values.dir);
const reps = Number(values.reps);

const ms = (work) => {
	const start = process.hrtime.bigint();
	work();
	return Number(process.hrtime.bigint() - start) / 1e6;
};
// CPU time of this process: on a shared machine, the time others held the core is not counted.
const cpuMs = (work) => {
	const start = process.cpuUsage();
	work();
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
};
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];

// A warm-up run, not counted: the JIT and the caches.
for (const page of pages) {
	sweepRead(page);
	parseHtml(page.html);
	parseDocument(page.html);
}
const runs = [];
const perPage = pages.map(() => []);
for (let r = 0; r < reps; r++) {
	let parse = 0;
	let own = 0;
	let read = 0;
	pages.forEach((page, i) => {
		const alone = ms(() => parseDocument(page.html));
		const ours = ms(() => parseHtml(page.html));
		const both = ms(() => sweepRead(page));
		parse += alone;
		own += ours;
		read += both;
		perPage[i].push(both / ours);
	});
	// Then the corpus whole, each way in turn (which goes first alternates), on CPU time.
	const blocks = [
		() => pages.forEach((page) => parseDocument(page.html)),
		() => pages.forEach(sweepRead),
		() => pages.forEach((page) => parseHtml(page.html)),
		...(against ? [() => pages.forEach(againstRead)] : []),
	];
	const order = blocks.map((_, i) => i);
	if (r % 2 === 1) order.reverse();
	const cpu = [];
	for (const i of order) cpu[i] = cpuMs(blocks[i]);
	runs.push({ parse, own, read, cpuParse: cpu[0], cpuRead: cpu[1], cpuOwn: cpu[2], cpuAgainst: cpu[3] });
}
const ratio = median(runs.map((run) => run.read / run.parse));
const cpuRatio = median(runs.map((run) => run.cpuRead / run.cpuParse));
const ownRatio = median(runs.map((run) => run.read / run.own));
const cpuOwnRatio = median(runs.map((run) => run.cpuRead / run.cpuOwn));
console.log(`${pages.length} pages (${dir}), ${reps} runs, node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}`);
console.log(
	`wall clock, page by page: parseDocument alone ${median(runs.map((run) => run.parse)).toFixed(0)} ms, parseHtml alone ` +
		`${median(runs.map((run) => run.own)).toFixed(0)} ms, the sweep's parse + readOffer ${median(runs.map((run) => run.read)).toFixed(0)} ms a ` +
		`run: **${ratio.toFixed(2)}x** parseDocument's (target <= 1.2x), ${ownRatio.toFixed(2)}x parseHtml's`,
);
console.log(
	`CPU time, the corpus whole: parseDocument alone ${median(runs.map((run) => run.cpuParse)).toFixed(0)} ms, ` +
		`parseHtml alone ${median(runs.map((run) => run.cpuOwn)).toFixed(0)} ms, the sweep's parse + readOffer ` +
		`${median(runs.map((run) => run.cpuRead)).toFixed(0)} ms a run: **${cpuRatio.toFixed(2)}x** parseDocument's, ` +
		`${cpuOwnRatio.toFixed(2)}x parseHtml's`,
);
if (against)
	console.log(
		`CPU time, the corpus whole, with ${values.against}'s reader: parse + readOffer ${median(runs.map((run) => run.cpuAgainst)).toFixed(0)} ms a run: ` +
			`**${median(runs.map((run) => run.cpuAgainst / run.cpuParse)).toFixed(2)}x**; this build's parse + read takes ` +
			`${median(runs.map((run) => run.cpuRead / run.cpuAgainst)).toFixed(2)}x its time`,
	);
// Per page: the sweep's parse + read over its own parse alone.
const worst = pages
	.map((page, i) => [page.truth.file, median(perPage[i])])
	.sort((a, b) => b[1] - a[1])
	.slice(0, 5);
console.log(`the pages that cost the most: ${worst.map(([file, r]) => `${file} ${r.toFixed(2)}x`).join(', ')}`);
