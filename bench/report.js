// revisit report bench: `npm run build && node bench/report.js [--verdicts N] [--changes N] [--errors N] [--hosts N] [--reps N]`
//
// Builds the report of one large run and opens it in Debian's chromium (playwright-core,
// /usr/bin/chromium, the flags the tests use), reporting the page's size and how soon it
// is usable. The run is made of real pieces from dist/: N verdicts (default 100,000) go
// through the run detail (pipelines/run-detail.js addToDetail, with its caps), of which
// C are changes (default 1,000) whose word diffs come from content/word-diff.js over two
// versions of a ~2 KB counted text (a few words edited, seeded PRNG), E are errors over 6
// codes, the rest 304s; H hosts (default 200) have host records. loadReport and
// renderReport (report/) write the page to bench/.tmp/report-N.html.
//
// Per repetition (default 5), in a fresh page: `ready`, the time from navigation start to
// the page's data-ready mark (the script has parsed the data and built the first rows:
// the page answers input from then on), DOMContentLoaded and load, the time the first
// "Show more" (100 more rows) takes, opening the hosts section, switching every open
// diff to side by side, and the JS heap once ready. Medians are printed as a Markdown table.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { mulberry32 } from './lib/prng.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = (file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
const { addToDetail, createRunDetail } = await dist('pipelines/run-detail.js');
const { wordDiff } = await dist('domain/content/word-diff.js');
const { MemoryStore } = await dist('store/level/memory.js');
const { runKey } = await dist('store/model/run-key.js');
const { newHostRecord } = await dist('net/hosts/record.js');
const { loadReport } = await dist('io/report/data.js');
const { renderReport } = await dist('io/report/html.js');

const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const verdicts = arg('verdicts', 100_000);
const changes = arg('changes', 1000);
const errorCount = arg('errors', 500);
const hostCount = arg('hosts', 200);
const reps = arg('reps', 5);
const random = mulberry32(0x5eed2222);
const WORDS = (
	'the council met on tuesday and agreed budget for harbour new road school library ' +
	'opening hours price tickets weather report local news sport results market'
).split(' ');
const sentence = (n) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
const page = () => Array.from({ length: 20 }, () => `${sentence(14)}.`).join('\n');
const edit = (text) => {
	const words = text.split(' ');
	for (let k = 0; k < 3; k++) words[Math.floor(random() * words.length)] = WORDS[Math.floor(random() * WORDS.length)].toUpperCase();
	return words.join(' ');
};

// 1. The run: its detail through addToDetail, its row, the hosts.
const startedAt = Date.UTC(2026, 11, 4, 6, 0, 0);
const store = new MemoryStore();
const detail = createRunDetail(startedAt);
const origins = Array.from({ length: hostCount }, (_, i) => `https://site${i}.example`);
const figures = {};
const codes = ['ETIMEDOUT', 'ECONNRESET', 'HTTP_500', 'HTTP_503', 'HTTP_403', 'BODY_TOO_LARGE'];
let changedSoFar = 0;
let errorsSoFar = 0;
for (let i = 0; i < verdicts; i++) {
	const origin = origins[i % origins.length];
	const url = `${origin}/section/${i}/article-${i}.html`;
	const host = (figures[origin] ??= { urls: 0, changed: 0, conditional: 0, notModified: 0 });
	host.urls++;
	host.conditional++;
	const before = { v: 1, status: 200, etag: `"${i}-a"`, hash: 'a'.repeat(32), lastChecked: startedAt - 86_400_000 };
	if (changedSoFar < changes && i % Math.floor(verdicts / changes) === 0) {
		changedSoFar++;
		host.changed++;
		const old = page();
		const diff = wordDiff(old, edit(old));
		const next = { ...before, etag: `"${i}-b"`, hash: 'b'.repeat(32), lastChecked: startedAt };
		addToDetail(detail, {
			line: i,
			input: url,
			url,
			origin,
			record: before,
			next,
			verdict: { url, changed: true, reason: 'new-body', status: 200, etag: next.etag, hash: next.hash, bytes: 2400 },
			wordDiff: { hunks: diff.hunks, why: 'diff' },
		});
	} else if (errorsSoFar < errorCount && i % Math.floor(verdicts / errorCount) === 1) {
		errorsSoFar++;
		const code = codes[errorsSoFar % codes.length];
		addToDetail(detail, { line: i, input: url, url, origin, verdict: { url, changed: false, reason: 'error', error: { code, message: `${code} on ${url}` } } });
	} else {
		host.notModified++;
		addToDetail(detail, { line: i, input: url, url, origin, record: before, next: before, verdict: { url, changed: false, reason: '304', status: 304 } });
	}
}
const { diffChars: _chars, ...detailValue } = detail;
const row = {
	v: 1,
	startedAt,
	endedAt: startedAt + 600_000,
	urls: verdicts,
	changed: changedSoFar,
	notModified: verdicts - changedSoFar - errorsSoFar,
	sameHash: 0,
	errors: errorsSoFar,
	bytes: changedSoFar * 2400,
	fullBytes: verdicts * 2400,
	notDue: 0,
	blockedHosts: [],
	hosts: figures,
};
await store.batch([
	{ type: 'putRun', key: runKey(startedAt), value: row },
	{ type: 'putRunDetail', key: runKey(startedAt), value: detailValue },
	...origins.map((origin) => ({
		type: 'putHost',
		key: origin,
		value: {
			...newHostRecord(startedAt),
			conditional: figures[origin].conditional,
			notModified: figures[origin].notModified,
			mode: 'conditional',
			modeReason: 'honest 304s',
			form: 'both',
		},
	})),
]);
const built = performance.now();
const html = renderReport(await loadReport(store, { runs: 1 }, 'bench'));
const buildMs = performance.now() - built;
const dir = path.join(root, 'bench/.tmp');
await mkdir(dir, { recursive: true });
const file = path.join(dir, `report-${verdicts}.html`);
await writeFile(file, html);
const size = Buffer.byteLength(html);

// 2. The page in chromium.
const browser = await chromium.launch({
	executablePath: '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const runs = [];
try {
	for (let rep = 0; rep < reps; rep++) {
		const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
		const errors = [];
		tab.on('pageerror', (error) => errors.push(String(error)));
		const t0 = performance.now();
		await tab.goto(pathToFileURL(file).href);
		await tab.waitForSelector('html[data-ready]');
		const wall = performance.now() - t0;
		const page = await tab.evaluate(() => {
			const nav = performance.getEntriesByType('navigation')[0];
			return {
				ready: Number(document.documentElement.dataset.ready),
				dcl: nav.domContentLoadedEventEnd,
				load: nav.loadEventEnd,
				heap: performance.memory?.usedJSHeapSize ?? 0,
				rows: document.querySelectorAll('details.change').length,
			};
		});
		const timed = (action) => tab.evaluate(action);
		const more = await timed(() => {
			const t = performance.now();
			document.getElementById('more-changes').click();
			document.body.offsetHeight;
			return performance.now() - t;
		});
		const hosts = await timed(() => {
			const t = performance.now();
			const section = document.getElementById('hosts-section');
			section.open = true;
			section.dispatchEvent(new Event('toggle'));
			document.body.offsetHeight;
			return performance.now() - t;
		});
		const side = await timed(() => {
			const t = performance.now();
			const radio = document.getElementById('view-side');
			radio.checked = true;
			radio.dispatchEvent(new Event('change'));
			document.body.offsetHeight;
			return performance.now() - t;
		});
		runs.push({ ...page, wall, more, hosts, side, errors: errors.length });
		await tab.close();
	}
} finally {
	await browser.close();
}
const median = (key) => {
	const values = runs.map((run) => run[key]).sort((a, b) => a - b);
	return values[Math.floor(values.length / 2)];
};
const ms = (value) => `${Math.round(value)} ms`;
console.log(
	`report of ${verdicts} verdicts (${changedSoFar} changes with diffs, ${errorsSoFar} errors, ${hostCount} hosts): ${(size / 1e6).toFixed(2)} MB, ` +
		`built in ${ms(buildMs)}; ${reps} loads in ${(await browser.version?.()) ?? 'chromium'}\n`,
);
console.log('| figure (median) | value |\n|---|---|');
console.log(`| page size | ${(size / 1e6).toFixed(2)} MB (${size} bytes) |`);
console.log(`| ready (navigation start → data-ready: data parsed, first 100 rows and 3 diffs built) | ${ms(median('ready'))} |`);
console.log(`| DOMContentLoaded / load | ${ms(median('dcl'))} / ${ms(median('load'))} |`);
console.log(`| goto → ready, seen from the test process | ${ms(median('wall'))} |`);
console.log(`| "Show more": 100 more rows | ${ms(median('more'))} |`);
console.log(`| open the hosts section (${hostCount} hosts) | ${ms(median('hosts'))} |`);
console.log(`| switch the open diffs to side by side | ${ms(median('side'))} |`);
console.log(`| JS heap once ready | ${(median('heap') / 1e6).toFixed(1)} MB |`);
console.log(`| rows built at first | ${runs[0].rows} |`);
console.log(`| page errors | ${runs.reduce((sum, run) => sum + run.errors, 0)} |`);
