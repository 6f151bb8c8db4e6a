// `revisit diff` bench: `npm run build && node bench/versions-diff.js [--reps N]`
//
// Issue 38's target: `revisit diff URL first latest` in ≤ 100 ms on a page with 31
// versions. One page of some 12 KB of HTML (a nav, a head with a style and a script, 24
// paragraphs of article text from a 2,000-word vocabulary, a footer; seeded PRNG) is
// served from 127.0.0.1 and swept 31 times by the built CLI into a fresh LevelDB store
// (default flags), with a small edit between sweeps, in turn: a sentence rewritten, the
// price changed, the date changed. `revisit log --json` must then list 31 versions.
//
// Then, N times each (default 11), interleaved so that both see the same machine: the
// whole command as a user runs it (`node bin/revisit.js diff URL first latest --store
// DIR`, a fresh process, stdout to /dev/null), and beside it for scale `node -e ''` (a
// Node process that does nothing), `revisit diff --version` (the start-up of the bundle
// log and diff load, dist/cli-pages.js: no store opened) and `revisit --version` (the
// full CLI's, dist/cli.js, which diff loaded before it had a bundle of its own). Also, in one process after a warm-up, what the command
// does past start-up: open the store, read the versions, rebuild the two texts, the word
// diff. Medians, as a Markdown table.
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pageParts } from './lib/edited-pages.js';
import { mulberry32 } from './lib/prng.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = (file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
const { LevelStore } = await dist('store/level/store.js');
const { pageVersions, versionText } = await dist('domain/versions/index.js');
const { compareTexts } = await dist('outputs/history/version-diff.js');
const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const reps = arg('reps', 11);
const VERSIONS = 31;

const random = mulberry32(0xd1ff);
const { sentence, nav, footer, head: headOf } = pageParts(random, 0);
const head = headOf.replace('TITLE', 'Story');
const paragraphs = Array.from({ length: 24 }, () => Array.from({ length: 3 }, sentence));
let price = 24.5;
let day = 1;
const page = () =>
	`<!doctype html><html>${head}<body>${nav}<main><article><h1>${paragraphs[0][0]}</h1><p class="date">Updated ` +
	`2026-11-${String(day).padStart(2, '0')}</p><p class="price">Price ${price.toFixed(2)} EUR</p>` +
	`${paragraphs.map((p) => `<div class="para-wrap"><p class="para">${p.join(' ')}</p></div>`).join('\n')}</article></main>${footer}</body></html>`;
const edits = [
	() => (paragraphs[1 + Math.floor(random() * 23)][Math.floor(random() * 3)] = sentence()),
	() => (price = Math.round((price + (random() < 0.5 ? -1 : 1) * (0.5 + random() * 3)) * 100) / 100),
	() => (day = (day % 28) + 1),
];

let body = page();
const server = http.createServer((req, res) => {
	res.setHeader('content-type', 'text/html; charset=utf-8');
	res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/story`;
const dir = path.join(root, 'bench/.tmp/versions-diff');
// --keep leaves the store for a closer look.
if (!process.argv.includes('--keep')) await rm(dir, { recursive: true, force: true });
await mkdir(path.dirname(dir), { recursive: true });

/** Runs a command to its end (not spawnSync: the server answering the sweeps runs in this process); resolves to its status, stdout and wall ms. */
const runTimed = (args, capture = false) =>
	new Promise((resolve, reject) => {
		const started = process.hrtime.bigint();
		const child = spawn(process.execPath, args, { stdio: ['ignore', capture ? 'pipe' : 'ignore', 'inherit'] });
		let out = '';
		child.stdout?.on('data', (chunk) => (out += chunk));
		child.on('error', reject);
		child.on('close', (status) => resolve({ status, out, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
	});
const revisit = (args, capture) => runTimed([path.join(root, 'bin/revisit.js'), ...args, '--store', dir], capture);

for (let i = 0; i < VERSIONS; i++) {
	if (i > 0) {
		edits[(i - 1) % edits.length]();
		body = page();
	}
	const { status } = await revisit(['sweep', '-q', '--robots', 'ignore', url]);
	if (status !== 0) throw new Error(`sweep ${i + 1} exited ${status}`);
}
server.close();
const log = await revisit(['log', url, '--json'], true);
const kept = log.out.trim().split('\n').length;
if (kept !== VERSIONS) throw new Error(`revisit log lists ${kept} versions, not ${VERSIONS}`);

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
};
const diffMs = [];
const nodeMs = [];
const versionMs = [];
const pagesMs = [];
for (let i = 0; i < reps; i++) {
	const diff = await revisit(['diff', url, 'first', 'latest']);
	if (diff.status !== 1) throw new Error(`revisit diff exited ${diff.status}, not 1`);
	diffMs.push(diff.ms);
	nodeMs.push((await runTimed(['-e', ''])).ms);
	pagesMs.push((await runTimed([path.join(root, 'bin/revisit.js'), 'diff', '--version'])).ms);
	versionMs.push((await runTimed([path.join(root, 'bin/revisit.js'), '--version'])).ms);
}

// Past start-up, in this process: what the command's handler does.
const inProcess = async () => {
	const started = process.hrtime.bigint();
	const store = await LevelStore.open(dir);
	const versions = await pageVersions(store, url);
	const [before, after] = await Promise.all([versionText(store, url, versions.at(-1).n), versionText(store, url, versions[0].n)]);
	const comparison = compareTexts(before, after);
	await store.close();
	return { ms: Number(process.hrtime.bigint() - started) / 1e6, comparison, bytes: after.length };
};
await inProcess();
const work = [];
let last;
for (let i = 0; i < reps; i++) {
	last = await inProcess();
	work.push(last.ms);
}

const ms = (value) => `${value.toFixed(0)} ms`;
console.log(
	`Load average ${os
		.loadavg()
		.map((load) => load.toFixed(1))
		.join(', ')} on ${os.availableParallelism()} cores.`,
);
console.log(
	`Page: ${(Buffer.byteLength(body) / 1024).toFixed(1)} KiB of HTML, ${(last.bytes / 1024).toFixed(1)} KiB of text; ${kept} versions; first → latest: ` +
		`+${last.comparison.added} −${last.comparison.removed} words. Median of ${reps} runs.\n`,
);
console.log('| what | median | min | max |');
console.log('|---|---|---|---|');
console.log(`| \`revisit diff URL first latest\` (a fresh process) | ${ms(median(diffMs))} | ${ms(Math.min(...diffMs))} | ${ms(Math.max(...diffMs))} |`);
console.log(`| \`node -e ''\` (start-up alone, for scale) | ${ms(median(nodeMs))} | ${ms(Math.min(...nodeMs))} | ${ms(Math.max(...nodeMs))} |`);
console.log(
	`| \`revisit diff --version\` (start-up of log and diff's bundle) | ${ms(median(pagesMs))} | ${ms(Math.min(...pagesMs))} | ${ms(Math.max(...pagesMs))} |`,
);
console.log(`| \`revisit --version\` (start-up of the full CLI) | ${ms(median(versionMs))} | ${ms(Math.min(...versionMs))} | ${ms(Math.max(...versionMs))} |`);
console.log(
	`| in one process: open the store, read the versions, both texts, the word diff | ${ms(median(work))} | ${ms(Math.min(...work))} | ` +
		`${ms(Math.max(...work))} |`,
);
// --keep leaves the store for a closer look.
if (!process.argv.includes('--keep')) await rm(dir, { recursive: true, force: true });
