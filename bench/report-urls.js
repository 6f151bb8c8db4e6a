// What a report file's URL pages cost: `npm run build && node bench/report-urls.js [--urls N] [--versions V] [--reps R]`
//
// An origin on 127.0.0.1 serves N pages (default 200) of ~6 KB of visible text (20
// paragraphs of seeded words); the CLI sweeps them V times (default 11), editing three
// words of every page before each sweep after the first, so that each page keeps V
// versions (--accept-churn all: every page of the one origin changes each time). Then, in this process, over the same LevelDB store and the last run (N
// changes), side by side R times (default 3): the report alone (loadReport +
// renderReport, what `revisit report` wrote before URL pages), the report with its N
// URL pages written afresh (writeReport: the versions read, the word diffs of each change
// and of the oldest against the latest, the files written), and the same again over the
// pages just written (their diffs taken again). Medians, and the pages' sizes.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mulberry32 } from './lib/prng.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = (file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
const { loadReport } = await dist('io/report/data.js');
const { renderReport } = await dist('io/report/html.js');
const { writeReport, urlPagesDir } = await dist('io/report/write.js');
const { openStore } = await dist('store/open.js');

const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const urls = arg('urls', 200);
const versions = arg('versions', 11);
const reps = arg('reps', 3);
const random = mulberry32(0x5eed3333);
const WORDS = (
	'the council met on tuesday and agreed budget for harbour new road school library ' +
	'opening hours price tickets weather report local news sport results market'
).split(' ');
const sentence = (n) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
const texts = Array.from({ length: urls }, () => Array.from({ length: 20 }, () => `${sentence(50)}.`));
const edit = (paragraphs) => {
	for (let k = 0; k < 3; k++) {
		const p = Math.floor(random() * paragraphs.length);
		const words = paragraphs[p].split(' ');
		words[Math.floor(random() * words.length)] = WORDS[Math.floor(random() * WORDS.length)].toUpperCase();
		paragraphs[p] = words.join(' ');
	}
};

const server = http.createServer((req, res) => {
	const i = Number(req.url.slice(1));
	res.setHeader('content-type', 'text/html; charset=utf-8');
	res.end(`<html><body>${texts[i].map((p) => `<p>${p}</p>`).join('')}</body></html>`);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const list = `${Array.from({ length: urls }, (_, i) => `http://127.0.0.1:${server.address().port}/${i}`).join('\n')}\n`;
const dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-bench-urls-'));
const storeDir = path.join(dir, 'store');
const sweep = () =>
	new Promise((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[path.join(root, 'bin/revisit.js'), 'sweep', '--store', storeDir, '--robots', 'ignore', '--accept-churn', 'all', '-q'],
			{ stdio: ['pipe', 'ignore', 'inherit'] },
		);
		child.on('exit', (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`sweep exited ${code}`))));
		child.stdin.end(list);
	});
for (let v = 0; v < versions; v++) {
	if (v > 0) for (const page of texts) edit(page);
	await sweep();
}
server.close();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const store = await openStore(storeDir, { create: false });
const alone = [];
const first = [];
const again = [];
const report = path.join(dir, 'report.html');
let written;
for (let r = 0; r < reps; r++) {
	let t = performance.now();
	renderReport(await loadReport(store, { runs: 1 }, storeDir));
	alone.push(performance.now() - t);
	await rm(urlPagesDir(report), { recursive: true, force: true });
	t = performance.now();
	written = await writeReport(store, report, { runs: 1 }, storeDir);
	first.push(performance.now() - t);
	t = performance.now();
	await writeReport(store, report, { runs: 1 }, storeDir);
	again.push(performance.now() - t);
}
await store.close();
const pages = await readdir(urlPagesDir(report));
const sizes = await Promise.all(pages.map(async (name) => (await stat(path.join(urlPagesDir(report), name))).size));
console.log(`| figure (median of ${reps}) | value |`);
console.log('|---|---|');
console.log(`| URLs changed in the run, versions kept each | ${written.data.changes.length}, ${versions} |`);
console.log(`| report alone (loadReport + renderReport) | ${median(alone).toFixed(0)} ms |`);
console.log(
	`| report and its URL pages, none written before (writeReport) | ${median(first).toFixed(0)} ms (${(median(first) / pages.length).toFixed(1)} ms a page) |`,
);
console.log(
	`| the same again, the pages' diffs taken from the pages written | ${median(again).toFixed(0)} ms (${(median(again) / pages.length).toFixed(1)} ms a page) |`,
);
console.log(
	`| URL pages written, size median / largest | ${pages.length}, ${(median(sizes) / 1024).toFixed(1)} KB / ${(Math.max(...sizes) / 1024).toFixed(1)} KB |`,
);
if (process.env.KEEP) console.log(storeDir);
else await rm(dir, { recursive: true, force: true });
