// The cost of content rules: `npm run build && node bench/rules.js [--pages 10000] [--reps 3]`.
//
// 1. Parser throughput, in this process on one core: a 50 KB HTML page (a product page:
//    scripts, a form, 560 list items, a price) run through each rule kind 300 times
//    (countedText from dist/, then hashed, as a sweep does), reported as bodies per second.
// 2. An unchanged run: bench/origin.js (N pages, strong ETags) swept once, then an
//    all-304 second sweep timed with and without `--select .price --text`, in turn, per
//    repetition (each row its own store): rules must cost nothing when no body is read.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ONE_ORIGIN, ROOT as root, startOrigin, timedRun } from './lib/sweep-bench.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '10000' }, reps: { type: 'string', default: '3' } } });
const { countedText } = await import(path.join(root, 'dist/domain/content/counted.js'));
const { compileRules } = await import(path.join(root, 'dist/domain/content/rules.js'));
const { hashBody } = await import(path.join(root, 'dist/domain/content/hash.js'));

const items = Array.from(
	{ length: 560 },
	(_, i) => `<li class="item"><a href="/p/${i}">Related product ${i}</a> <span>${(i * 7) % 100} reviews</span></li>`,
).join('\n');
const page = Buffer.from(
	`<!doctype html><html><head><title>Product</title><script>window.nonce="${'x'.repeat(32)}";${'var a=1;'.repeat(200)}</script><style>` +
		`${'.c{color:red}'.repeat(200)}</style></head>` +
		`<body><form><input type="hidden" name="csrf" value="abc"></form><p class="stamp">Generated at 2026-12-04T02:00:00Z</p><ul>${items}</ul>` +
		`<div class="product"><h1>Thing</h1><p class="price">Price: $12.50</p></div></body></html>`,
);
const ROUNDS = 300;
console.log(`Parser throughput, one core, a ${(page.length / 1024).toFixed(0)} KB page, ${ROUNDS} bodies each\n`);
console.log('| rule | bodies/s |');
console.log('|---|---:|');
for (const [name, spec] of [
	['none (hash the body)', undefined],
	['select .price', { select: ['.price'] }],
	['text', { text: true }],
	['text + 2 ignore patterns', { text: true, ignore: ['Generated at \\S+', '\\d+ reviews'] }],
	['select .product + text', { select: ['.product'], text: true }],
]) {
	const rule = spec && compileRules([spec])[0];
	for (let i = 0; i < 20; i++) hashBody(Buffer.from(countedText(rule, page, 'text/html').text));
	const started = process.hrtime.bigint();
	for (let i = 0; i < ROUNDS; i++) hashBody(Buffer.from(countedText(rule, page, 'text/html').text));
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	console.log(`| ${name} | ${Math.round(ROUNDS / seconds)} |`);
}

const pages = Number(values.pages);
const reps = Number(values.reps);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'revisit-rules-bench-'));
const origin = await startOrigin(pages, tmp);
const sweep = (store, extra) => timedRun(origin.urlsFile, ['sweep', '--store', store, ...ONE_ORIGIN, ...extra]).seconds;
try {
	const rules = ['--select', '.price', '--text'];
	sweep(path.join(tmp, 'plain'), []);
	sweep(path.join(tmp, 'rules'), rules);
	const times = { plain: [], rules: [] };
	for (let rep = 0; rep < reps; rep++) {
		times.plain.push(sweep(path.join(tmp, 'plain'), []));
		times.rules.push(sweep(path.join(tmp, 'rules'), rules));
	}
	const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
	console.log(`\nAll-304 second sweep of ${pages} pages, ${reps} repetitions interleaved, median seconds\n`);
	console.log('| run | median s | each | vs no rules |');
	console.log('|---|---:|---|---:|');
	for (const [name, list] of [
		['no rules', times.plain],
		['--select .price --text', times.rules],
	]) {
		console.log(`| ${name} | ${median(list).toFixed(2)} | ${list.map((t) => t.toFixed(2)).join(', ')} | ${(median(times.plain) / median(list)).toFixed(2)}x |`);
	}
} finally {
	origin.kill();
	rmSync(tmp, { recursive: true, force: true });
}
