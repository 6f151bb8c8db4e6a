// Where does a sweep spend its CPU?
//   node bench/profile.js [--pages 5000] [--pass 1|2] [--concurrency 24] [--top 25] [--only revisit|got] [--build DIR] [--got-lean]
//        [--origin node|nginx] [--like-for-like]
// revisit runs with its default flags (the 2% audit included), as every bench measures.
// --like-for-like turns the audit off (--audit 0 --method get), for the plumbing of a 304
// alone beside the got loop: a profile off the defaults, never a figure against a target;
// the run says so. (--origin nginx: nginx with gzip, as bench/compare.js measures.)
// (--got-lean: the got loop with revisit's native-options hook, bench/got-loop.js --lean)
// (--build: profile another build, a directory with dist/; revisit runs unbundled, from
// dist/cli/main.js through bench/lib/unbundled.js, so self time can be told apart by package)
//
// Starts bench/origin.js, then for both revisit and the plain got loop (bench/got-loop.js):
// runs an unprofiled first pass (to fill the store / ETag file) when --pass 2 is asked,
// then the measured pass under `node --cpu-prof`. Prints self time grouped by where the
// code lives (revisit's dist/, each node_modules package, node internals, GC) and the top
// functions, then the functions where revisit spends more per URL than the got loop, and
// leaves the .cpuprofile files in bench/.tmp/profiles/ (open them in Chrome DevTools).
// Figures include process start-up; use enough --pages to amortise it.
// Only 127.0.0.1 is contacted; each child has a hard timeout.
import { fork, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startNginxStatic } from './lib/nginx-static.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
// The unbundled CLI: in the bundle (bin/revisit.js → dist/cli.js) every package's code is in one file.
const BIN = path.join(HERE, 'lib', 'unbundled.js');
const GOT_LOOP = path.join(HERE, 'got-loop.js');
const OUT = path.join(HERE, '.tmp', 'profiles');

const { values } = parseArgs({
	options: {
		pages: { type: 'string', default: '5000' },
		pass: { type: 'string', default: '2' },
		concurrency: { type: 'string', default: '24' },
		top: { type: 'string', default: '25' },
		only: { type: 'string' },
		'got-lean': { type: 'boolean', default: false },
		build: { type: 'string' },
		origin: { type: 'string', default: 'node' },
		'like-for-like': { type: 'boolean', default: false },
	},
});
if (!['nginx', 'node'].includes(values.origin)) throw new TypeError('--origin is nginx or node');
if (values.build) process.env.REVISIT_DIST = path.join(path.resolve(values.build), 'dist');
const pages = Number(values.pages);
const pass = Number(values.pass);
const C = String(Number(values.concurrency));
const top = Number(values.top);
if (!Number.isInteger(pages) || pages < 1 || (pass !== 1 && pass !== 2)) throw new TypeError('bad --pages or --pass');

// --like-for-like: bench/run.js's flags, no audit re-fetches, plain GETs; off the defaults, and said so.
const sweepHelp = values['like-for-like']
	? (spawnSync(process.execPath, [BIN, 'sweep', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 }).stdout ?? '')
	: '';
const fairArgs = values['like-for-like']
	? [...(sweepHelp.includes('--audit') ? ['--audit', '0'] : []), ...(sweepHelp.includes('--method') ? ['--method', 'get'] : [])]
	: [];
if (fairArgs.length > 0)
	console.error(`profile: revisit runs with ${fairArgs.join(' ')} (--like-for-like): off its default flags, not a figure against a target`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-profile-'));
fs.mkdirSync(OUT, { recursive: true });

let closeOrigin;
let base;
if (values.origin === 'nginx') {
	const nginx = await startNginxStatic(pages, tmp);
	base = nginx.base;
	closeOrigin = nginx.close;
} else {
	const originChild = fork(path.join(HERE, 'origin.js'), [String(pages)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const [ready] = await once(originChild, 'message');
	base = `http://127.0.0.1:${ready.port}`;
	closeOrigin = () => originChild.send({ type: 'close' });
}
const urlsFile = path.join(tmp, 'urls.txt');
fs.writeFileSync(urlsFile, Array.from({ length: pages }, (_, n) => `${base}/p/${n}\n`).join(''));

function run(args, timeoutMs = 300_000) {
	const fd = fs.openSync(urlsFile, 'r');
	const started = performance.now();
	const child = spawn(process.execPath, args, { cwd: ROOT, stdio: [fd, 'ignore', 'pipe'] });
	fs.closeSync(fd);
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
	return new Promise((resolve) =>
		child.on('close', (code) => {
			clearTimeout(killer);
			if (code !== 0) process.stderr.write(`exit ${code}: ${stderr.slice(0, 2000)}\n`);
			resolve(performance.now() - started);
		}),
	);
}

function summarise(file) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const self = new Map();
	for (let i = 0; i < profile.samples.length; i++) {
		const id = profile.samples[i];
		self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
	}
	const total = [...self.values()].reduce((a, b) => a + b, 0);
	const where = (url) => {
		if (!url) return '(native/v8)';
		const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
		if (pkg) return pkg[1];
		if (url.includes('/dist/')) return 'revisit dist/';
		if (url.startsWith('node:')) return 'node internals';
		if (url.includes('/bench/')) return 'bench';
		return url;
	};
	const groups = new Map();
	const functions = new Map();
	const byFunction = new Map(); // without line numbers, for the revisit-versus-got diff
	for (const [id, us] of self) {
		const { callFrame } = byId.get(id);
		const name = callFrame.functionName || '(anonymous)';
		const group = ['(idle)', '(program)', '(garbage collector)'].includes(name) ? name : where(callFrame.url);
		groups.set(group, (groups.get(group) ?? 0) + us);
		const key = `${name}  ${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|bench)\//, '$1/')}:${callFrame.lineNumber + 1}`;
		functions.set(key, (functions.get(key) ?? 0) + us);
		const bare = key.replace(/:\d+$/, '');
		byFunction.set(bare, (byFunction.get(bare) ?? 0) + us);
	}
	const busy = total - (groups.get('(idle)') ?? 0);
	const lines = [
		`  sampled ${(total / 1000).toFixed(0)} ms, busy ${(busy / 1000).toFixed(0)} ms (${((busy / total) * 100).toFixed(0)}%), ` +
			`${(busy / pages).toFixed(0)} µs busy per URL`,
	];
	lines.push('  self time by location (share of busy time):');
	for (const [group, us] of [...groups]
		.filter(([g]) => g !== '(idle)')
		.sort((a, b) => b[1] - a[1])
		.slice(0, 14)) {
		lines.push(`    ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${(us / pages).toFixed(1).padStart(6)} µs/URL  ${group}`);
	}
	lines.push(`  top ${top} functions by self time:`);
	for (const [key, us] of [...functions]
		.filter(([k]) => !k.startsWith('(idle)'))
		.sort((a, b) => b[1] - a[1])
		.slice(0, top)) {
		lines.push(`    ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${key}`);
	}
	return { text: lines.join('\n'), byFunction, busy };
}

/** Functions where revisit spends more self time per URL than the got loop does. */
function diff(revisit, got) {
	const lines = [
		`revisit minus got loop: ${((revisit.busy - got.busy) / pages).toFixed(0)} µs busy per URL (${(revisit.busy / pages).toFixed(0)} vs ` +
			`${(got.busy / pages).toFixed(0)})`,
	];
	lines.push(`  top ${top} functions by extra self time (µs/URL: extra, revisit, got):`);
	const keys = new Set([...revisit.byFunction.keys(), ...got.byFunction.keys()]);
	const rows = [...keys]
		.filter((key) => !key.startsWith('(idle)'))
		.map((key) => [key, (revisit.byFunction.get(key) ?? 0) / pages, (got.byFunction.get(key) ?? 0) / pages])
		.sort((a, b) => b[1] - b[2] - (a[1] - a[2]));
	for (const [key, r, g] of rows.slice(0, top))
		lines.push(`    ${(r - g).toFixed(1).padStart(7)} ${r.toFixed(1).padStart(7)} ${g.toFixed(1).padStart(7)}  ${key}`);
	return lines.join('\n');
}

const summaries = {};
try {
	for (const tool of values.only ? [values.only] : ['revisit', 'got']) {
		const dir = path.join(OUT, `${tool}-pass${pass}`);
		fs.rmSync(dir, { recursive: true, force: true });
		const store = path.join(tmp, `store-${tool}`);
		const etags = path.join(tmp, `etags-${tool}.json`);
		const args =
			tool === 'revisit'
				? [BIN, 'sweep', '--store', store, '-q', '--concurrency', C, '--per-host', C, ...fairArgs]
				: [GOT_LOOP, '--concurrency', C, '--etags', etags, ...(values['got-lean'] ? ['--lean'] : [])];
		if (pass === 2) await run(args);
		const ms = await run(['--cpu-prof', '--cpu-prof-dir', dir, ...args]);
		const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
		console.log(
			`${tool}, pass ${pass}, ${pages} URLs, concurrency ${C}: ${ms.toFixed(0)} ms wall (${((pages / ms) * 1000).toFixed(0)} URLs/s, under the profiler)`,
		);
		summaries[tool] = summarise(path.join(dir, file));
		console.log(summaries[tool].text);
		console.log(`  profile: ${path.relative(process.cwd(), path.join(dir, file))}\n`);
	}
	if (summaries.revisit && summaries.got) console.log(diff(summaries.revisit, summaries.got));
} finally {
	await closeOrigin();
	fs.rmSync(tmp, { recursive: true, force: true });
}
