// Which PDF text extractor revisit uses, by measurement: Debian's pdftotext (poppler-utils,
// a child process per document) against Mozilla's pdfjs-dist (its legacy build, in the
// Node process): start-up, time per document and per page, peak memory, and the text
// each gives back of PDFs written by test/fixtures/pdf-writer.js (no network).
//
//   npm run build && node bench/pdf.js [--runs 5]
//
// Then the targets end to end (bench/lib/pdf-sweep.js): 10 sweeps of PDFs written again
// with the same text, and one edited sentence, through the built CLI.
//
// Needs pdftotext on PATH (apt-get install poppler-utils) and pdfjs-dist in node_modules
// (npm install --no-save pdfjs-dist@5.4.296: revisit itself does not use it).
// Every figure is the median of --runs; the memory figures are each a fresh process's peak RSS.
// Writes a markdown table to stdout (bench/PDF.md has one run's).
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { prosePages, writePdf } from '../test/fixtures/pdf-writer.js';
import { pdfSweeps } from './lib/pdf-sweep.js';

const PDFJS = fileURLToPath(new URL('../node_modules/pdfjs-dist/legacy/build/pdf.mjs', import.meta.url));
const SIZES = [1, 10, 100, 500];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const normalise = (text) =>
	text
		.split('\n')
		.map((line) => line.replace(/[\s\f]+/g, ' ').trim())
		.filter(Boolean)
		.join('\n');

/** pdftotext on `body` (stdin to stdout), in its own process. */
function pdftotext(body) {
	return new Promise((resolve, reject) => {
		const child = spawn('pdftotext', ['-q', '-enc', 'UTF-8', '-', '-'], { stdio: ['pipe', 'pipe', 'ignore'] });
		const chunks = [];
		child.stdout.on('data', (chunk) => chunks.push(chunk));
		child.on('error', reject);
		child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`pdftotext exited ${code}`))));
		child.stdin.end(body);
	});
}

/** pdfjs-dist's text of `body`: each item's string, a line break where it says one ends, one more per page. */
async function pdfjsText(pdfjs, body) {
	const document = await pdfjs.getDocument({ data: new Uint8Array(body), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
	const parts = [];
	for (let n = 1; n <= document.numPages; n++) {
		const page = await document.getPage(n);
		const content = await page.getTextContent();
		for (const item of content.items) if ('str' in item) parts.push(item.str, item.hasEOL ? '\n' : '');
		parts.push('\n');
		page.cleanup();
	}
	await document.destroy();
	return parts.join('');
}

// A child's mode: load pdfjs, read one document of SIZE pages (0: none), report timings and peak RSS.
if (process.argv[2] === '--child') {
	const size = Number(process.argv[3]);
	const started = performance.now();
	const pdfjs = await import(PDFJS);
	const loaded = performance.now();
	if (size > 0) await pdfjsText(pdfjs, writePdf(prosePages(size)));
	const done = performance.now();
	process.send({ loadMs: loaded - started, firstMs: done - loaded, maxRssKb: process.resourceUsage().maxRSS });
	process.exit(0);
}

const args = process.argv.slice(2);
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 5;

function child(size) {
	return new Promise((resolve, reject) => {
		const forked = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', String(size)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		forked.once('message', resolve);
		forked.once('error', reject);
	});
}

/** Node's own start and exit, with nothing loaded: what a child's figures are measured over. */
async function bareNode() {
	const times = [];
	for (let i = 0; i < runs; i++) {
		const started = performance.now();
		await promisify(execFile)(process.execPath, ['-e', '0']);
		times.push(performance.now() - started);
	}
	return median(times);
}

/** `work`'s median time over --runs, and the longest the event loop stood still meanwhile (ms). */
async function timed(work) {
	const delay = monitorEventLoopDelay({ resolution: 5 });
	delay.enable();
	const times = [];
	for (let i = 0; i < runs; i++) {
		const started = performance.now();
		await work();
		times.push(performance.now() - started);
	}
	// Work done in microtasks alone (pdfjs-dist's in-process worker) never lets the sampling timer fire: let it, once, before reading.
	await new Promise((resolve) => setTimeout(resolve, 20));
	delay.disable();
	return { ms: median(times), stallMs: delay.max / 1e6 };
}

async function timePdftotext(body) {
	const times = [];
	for (let i = 0; i < runs; i++) {
		const started = performance.now();
		await pdftotext(body);
		times.push(performance.now() - started);
	}
	return median(times);
}

async function peakPdftotext(body) {
	const { stderr } = await new Promise((resolve, reject) => {
		const timed = spawn('/usr/bin/time', ['-f', '%M', 'pdftotext', '-q', '-', '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
		let err = '';
		timed.stderr.on('data', (chunk) => (err += chunk));
		timed.on('error', reject);
		timed.on('close', () => resolve({ stderr: err }));
		timed.stdin.end(body);
	});
	return Number(stderr.trim().split('\n').at(-1));
}

const out = [];
const print = (line = '') => out.push(line);
// pdfjs-dist is not a dependency of revisit: the comparison needs it installed (npm install --no-save pdfjs-dist@5.4.296).
const pdfjs = await import(PDFJS).catch(() => undefined);

const pdfjsVersion =
	pdfjs === undefined
		? 'not installed'
		: `${JSON.parse(readFileSync(new URL('../node_modules/pdfjs-dist/package.json', import.meta.url), 'utf8')).version} (legacy build)`;
print(
	`pdftotext: ` +
		(await promisify(execFile)('pdftotext', ['-v']).catch((error) => error)).stderr.split('\n')[0] +
		`; pdfjs-dist ${pdfjsVersion}; Node ${process.version}; median of ${runs} runs`,
);
print();

if (pdfjs === undefined) {
	print(`pdfjs-dist is not installed: the comparison is left out (npm install --no-save pdfjs-dist@5.4.296 to run it).`);
	print();
} else await compareExtractors();

const sweeps = await pdfSweeps({ documents: 30, sizes: [1, 10, 100], runs: 10 });
print(`### revisit sweep, default flags: ${sweeps.documents} PDFs of ${sweeps.sizes.join(', ')} pages, new bytes on every request`);
print();
print('| figure | value | target |');
print('|---|---|---|');
print(`| first sweep: new | ${sweeps.firstNew} of ${sweeps.documents} | |`);
print(`| changes reported over the ${sweeps.runs} sweeps after it | ${sweeps.changes.reduce((a, b) => a + b, 0)} (per run: ${sweeps.changes.join(' ')}) | 0 |`);
print(`| reasons seen in those sweeps | ${sweeps.reasons.join(', ')} | |`);
print(`| one sweep of the ${sweeps.documents} (median) | ${sweeps.sweepMs.toFixed(0)} ms | |`);
print(`| one sentence of one PDF edited: changes reported | ${sweeps.edited.join('; ') || 'none'} | that PDF alone |`);
print(
	`| the new sentence's words in the report's diff (new side) | ${sweeps.wordsShown} of ${sweeps.words}, the sentence whole: ` +
		`${sweeps.whole ? 'yes' : 'no'} (added: "${sweeps.added}") | all |`,
);
console.log(out.join('\n'));

/** The comparison of the two extractors: start-up, per document, text, unreadable files. */
async function compareExtractors() {
	// Start-up: what the first PDF of a run costs beyond its reading.
	const node = await bareNode();
	const loads = [];
	for (let i = 0; i < runs; i++) loads.push(await child(0));
	const firsts = [];
	for (let i = 0; i < runs; i++) firsts.push(await child(1));
	const empty = median(loads.map((load) => load.maxRssKb));
	print('### Start-up');
	print();
	print('| | ms | peak RSS |');
	print('|---|---:|---:|');
	print(`| node -e 0 (for scale) | ${node.toFixed(0)} | |`);
	print(
		`| pdfjs-dist: import the legacy build | ${median(loads.map((load) => load.loadMs)).toFixed(0)} | ${(empty / 1024).toFixed(0)} MB (the whole process) |`,
	);
	print(`| pdfjs-dist: first 1-page document after import | ${median(firsts.map((first) => first.firstMs)).toFixed(0)} | |`);
	print(
		`| pdftotext: one 1-page document, spawn to exit | ${(await timePdftotext(writePdf(prosePages(1)))).toFixed(1)} | ` +
			`${((await peakPdftotext(writePdf(prosePages(1)))) / 1024).toFixed(1)} MB |`,
	);
	print();

	print('### Per document (warm pdfjs-dist, in process; pdftotext spawned per document)');
	print();
	print(
		'| pages | PDF bytes | pdftotext ms | pdfjs ms | pdftotext ms/page | pdfjs ms/page | pdftotext ' +
			'peak RSS | pdfjs peak RSS over its import | longest event-loop stall, pdftotext | pdfjs |',
	);
	print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
	for (const size of SIZES) {
		const body = writePdf(prosePages(size), { compress: true });
		const poppler = await timed(() => pdftotext(body));
		await pdfjsText(pdfjs, body); // warm: the first document pays for compiling the parser
		const mozilla = await timed(() => pdfjsText(pdfjs, body));
		const popplerRss = await peakPdftotext(body);
		const grown = [];
		for (let i = 0; i < Math.min(runs, 3); i++) grown.push((await child(size)).maxRssKb - empty);
		const perPage = (figure) => (figure.ms / size).toFixed(2);
		print(
			`| ${size} | ${body.length} | ${poppler.ms.toFixed(1)} | ${mozilla.ms.toFixed(1)} | ${perPage(poppler)} | ${perPage(mozilla)} | ` +
				`${(popplerRss / 1024).toFixed(1)} MB | ${(median(grown) / 1024).toFixed(1)} MB | ${poppler.stallMs.toFixed(0)} ms | ` +
				`${mozilla.stallMs.toFixed(0)} ms |`,
		);
	}
	print();

	// Text: what each gives back of the same lines written in different ways, against the lines themselves.
	const LINES = [...prosePages(2, 20).flat(), 'Café prices: 5 € – “fair” ‘quoted’ — done', 'Total (net): 1,234.50 EUR; 12% off [see note]'];
	const source = normalise(LINES.join('\n'));
	const variants = {
		'lines (Tj per line)': writePdf([LINES.slice(0, 21), LINES.slice(21)]),
		'lines, compressed, reversed objects': writePdf([LINES.slice(0, 21), LINES.slice(21)], {
			compress: true,
			order: 'reverse',
			created: new Date(Date.UTC(2026, 5, 1)),
			id: 'other',
		}),
		'word by word (Tm per word)': writePdf([LINES.slice(0, 21), LINES.slice(21)], { layout: 'split' }),
		'no space characters (TJ offsets, kerning)': writePdf([LINES.slice(0, 21), LINES.slice(21)], { layout: 'kerned' }),
	};
	print('### Text given back (normalised: whitespace runs one space, blank lines dropped)');
	print();
	print('| written as | pdftotext: lines exact | pdfjs: lines exact |');
	print('|---|---:|---:|');
	const seen = { pdftotext: new Set(), pdfjs: new Set() };
	for (const [name, body] of Object.entries(variants)) {
		const poppler = normalise(await pdftotext(body));
		const mozilla = normalise(await pdfjsText(pdfjs, body));
		seen.pdftotext.add(poppler);
		seen.pdfjs.add(mozilla);
		const exact = (text) => {
			const got = new Set(text.split('\n'));
			return `${source.split('\n').filter((line) => got.has(line)).length}/${source.split('\n').length}`;
		};
		print(`| ${name} | ${exact(poppler)} | ${exact(mozilla)} |`);
		if (process.env.PDF_BENCH_SHOW) console.error(`--- ${name}\n${poppler.split('\n').slice(-3).join('\n')}\n${mozilla.split('\n').slice(-3).join('\n')}`);
	}
	print(`| distinct texts over the four | ${seen.pdftotext.size} | ${seen.pdfjs.size} |`);
	print();

	// Unreadable files: each must fail, not hang or give text.
	print('### Files neither can read');
	print();
	print('| file | pdftotext | pdfjs |');
	print('|---|---|---|');
	for (const [name, body] of Object.entries({
		encrypted: writePdf(prosePages(1), { encrypt: true }),
		'cut at a third': writePdf(prosePages(3), { broken: true }),
	})) {
		const poppler = await pdftotext(body).then(
			() => 'text',
			(error) => error.message,
		);
		const mozilla = await pdfjsText(pdfjs, body).then(
			() => 'text',
			(error) => `${error.name}: ${error.message}`,
		);
		print(`| ${name} | ${poppler} | ${mozilla} |`);
	}
	print();
}
