// Does a budgeted run hold O(budget) URLs? (issue 26: with 10M stored URLs and
// `--budget 100000`, peak RSS <= 300 MiB.) Run from the repository root:
//
//   npm run build && node bench/budget-memory.js                 # 10,000,000 URLs (long: see bench/BUDGET.md)
//   node bench/budget-memory.js --urls 200000 --small 50000      # a quick try
//   node bench/budget-memory.js --keep /var/tmp/budget-store     # keep the stores, reuse them next time
//   node bench/budget-memory.js --seed 2 --keep /var/tmp/budget-store  # stores from another seed, beside those
//
// 1. Makes a LevelDB store of N stored URLs (--urls, default 10,000,000) straight through
//    the project's store (dist/store/level/store.js): each URL a page of ONE local origin this
//    bench starts (127.0.0.1), as a sweep would have stored it (status 200, a strong ETag,
//    the body's hash, lastChecked spread over the last 30 days, a few `checks`, the rate
//    they give, verifiedAt spread over the last 30 days, not after lastChecked: a few
//    percent are due for verification at the default --verify-every 30d). The host's record comes from two
//    real sweeps of 20 of its pages. A second, smaller store (--small, default 1,000,000)
//    is made the same way, for the "RSS does not grow with N" rows.
// 2. For each case, copies the store (every case starts from the same state) and runs the
//    real CLI as a child, `node --import bench/lib/peak-rss.js bin/revisit.js sweep --store
//    COPY --budget B -q --now T`, every stored URL written to its stdin as it drains (never
//    all held at once), default flags otherwise (robots obeyed: /robots.txt answers 404).
//    Reports peak RSS (VmHWM, read by the child at exit; and the peaks of RssAnon and
//    RssFile polled from /proc meanwhile: LevelDB maps its table files, and pages of a
//    mapped file count in RSS though the kernel can drop them at will), wall time, the
//    requests the origin saw (304s, full answers, of which audits: an unconditional GET of
//    a page already answered 304 in the run) and the exit status (must be 0).
// 3. `revisit due --store COPY --budget B --now T`, its output counted as `wc -l` would.
//
// The origin (this file, forked with --origin) answers GET /p/<n> with a 13-byte body and
// ETag "p<n>", 304 to If-None-Match with it, 404 to anything else. Exit status 1 when a run
// failed, saw more requests than it may, or a target (300 MiB at --budget 100000) is missed.
import { fork, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { mulberry32 } from './lib/prng.js';
import { pollRss } from './lib/poll-rss.js';
import { countFlag } from './lib/count-flag.js';
import { closeChild } from './lib/child.js';
import { openTemplate } from './lib/template-record.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const CLI = path.join(ROOT, 'bin/revisit.js');
const HOOK = pathToFileURL(path.join(HERE, 'lib', 'peak-rss.js')).href;
const DAY = 86_400_000;
// --trace FILE: the children also sample their memory into FILE (bench/lib/memory-trace.js, forced GCs: to explain a figure, not to measure one).
let trace;
let nodeFlags = [];
const MIB = 1024 * 1024;
// Where bodies come from: the same function here and in the origin, so stored hashes match.
const body = (n) => `bench page ${n}\n`;
const etagOf = (n) => `"p${n}"`;

if (process.argv[2] === '--origin') serve();
else await main();

function serve() {
	const stats = { requests: 0, notModified: 0, full: 0, audits: 0, conditionalFull: 0, robots: 0, other: 0 };
	// Pages answered 304 in this run: an unconditional GET of one is an audit.
	const answered304 = new Set();
	const PATH = /^\/p\/(\d{1,9})$/;
	const server = http.createServer((req, res) => {
		stats.requests++;
		const match = PATH.exec(req.url ?? '');
		if (!match || req.method !== 'GET') {
			if (req.url === '/robots.txt') stats.robots++;
			else stats.other++;
			res.writeHead(404, { 'content-length': '0' });
			return res.end();
		}
		const n = Number(match[1]);
		const etag = etagOf(n);
		const inm = req.headers['if-none-match'];
		if (inm === etag) {
			stats.notModified++;
			answered304.add(n);
			res.writeHead(304, { etag });
			return res.end();
		}
		if (inm !== undefined) stats.conditionalFull++;
		else if (answered304.has(n)) stats.audits++;
		stats.full++;
		const text = body(n);
		res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(text)), etag });
		res.end(text);
	});
	server.keepAliveTimeout = 60_000;
	process.on('message', (message) => {
		if (message.type === 'stats') process.send({ type: 'stats', stats });
		if (message.type === 'reset') {
			for (const key of Object.keys(stats)) stats[key] = 0;
			answered304.clear();
		}
		if (message.type === 'close') server.close(() => process.exit(0));
	});
	process.on('disconnect', () => process.exit(0));
	server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
}

async function main() {
	const { values: flags } = parseArgs({
		options: {
			urls: { type: 'string', default: '10000000' },
			small: { type: 'string', default: '1000000' },
			budget: { type: 'string', default: '100000' },
			// --seed S: stores made from another seed (default: each store's own size, as before), kept beside the others.
			seed: { type: 'string' },
			keep: { type: 'string' },
			cases: { type: 'string' },
			json: { type: 'string' },
			trace: { type: 'string' },
			// --node '--no-optimize-for-size': node flags for the measured children (the CLI otherwise sets that one itself: src/cli/heap.ts).
			node: { type: 'string' },
		},
	});
	const count = (name) => countFlag(flags, name);
	const big = count('urls');
	const small = Math.min(count('small'), big);
	const budget = count('budget');
	const dir = flags.keep ? path.resolve(flags.keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-budget-'));
	fs.mkdirSync(dir, { recursive: true });
	const metaFile = path.join(dir, 'bench.json');
	trace = flags.trace && path.resolve(flags.trace);
	nodeFlags = flags.node ? flags.node.split(/\s+/).filter(Boolean) : [];
	const meta = fs.existsSync(metaFile)
		? JSON.parse(fs.readFileSync(metaFile, 'utf8'))
		: { now: Date.parse('2026-12-01T00:00:00Z'), port: await freePort(), stores: {} };
	fs.writeFileSync(metaFile, JSON.stringify(meta));
	console.log(`bench dir ${dir}; origin 127.0.0.1:${meta.port}; now ${new Date(meta.now).toISOString()}; ${os.cpus().length} CPUs, Node ${process.version}`);

	const origin = fork(fileURLToPath(import.meta.url), ['--origin', String(meta.port)], { stdio: 'inherit' });
	await new Promise((resolve, reject) => {
		origin.once('message', resolve);
		origin.once('exit', () => reject(new Error(`origin could not listen on ${meta.port} (with --keep, the port of the first run is reused)`)));
	});
	const results = [];
	let failed = false;
	try {
		const stores = {};
		const seed = flags.seed === undefined ? undefined : count('seed');
		for (const n of [...new Set([small, big])]) stores[n] = await storeOf(dir, meta, n, origin, seed);
		// Each case: [store size, budget, what]. The figures that matter: RSS against the budget, and against N.
		const all = [
			[big, budget, 'sweep'],
			[big, budget, 'due'],
			[small, budget, 'sweep'],
			[small, budget, 'due'],
			[big, 1000, 'sweep'],
			[small, 1000, 'sweep'],
			[small, Math.min(small, 1_000_000), 'sweep'],
			[big, Math.min(big, 1_000_000), 'sweep'],
		];
		// --cases 0,1 runs those rows of `all` only; --cases none just makes the stores.
		const wanted = flags.cases
			? flags.cases
					.split(',')
					.map(Number)
					.filter((i) => all[i])
			: all.map((_, i) => i);
		const seen = new Set();
		for (const i of wanted) {
			const [n, b, what] = all[i];
			const key = `${n}/${b}/${what}`;
			if (seen.has(key)) continue;
			seen.add(key);
			const result = await runCase(dir, meta, stores[n], n, b, what, origin);
			results.push(result);
			console.log(line(result));
			const over = result.status !== 0 || (what === 'sweep' && result.requests.pages > b + result.requests.audits) || (b === budget && result.vmHwmMiB > 300);
			if (over) failed = true;
		}
	} finally {
		await closeChild(origin);
		if (!flags.keep) fs.rmSync(dir, { recursive: true, force: true });
	}
	console.log(
		'\n| stored URLs | run | budget | peak RSS (VmHWM) | peak RssAnon | peak RssFile | wall s | CPU s | requests: 304 / full (audits) / robots | exit |',
	);
	console.log('|---:|---|---:|---:|---:|---:|---:|---:|---|---:|');
	for (const r of results) {
		const q = r.requests;
		console.log(
			`| ${r.urls.toLocaleString('en')} | ${r.what} | ${r.budget.toLocaleString('en')} | ${r.vmHwmMiB.toFixed(1)} MiB | ${r.anonMiB.toFixed(1)} MiB | ` +
				`${r.fileMiB.toFixed(1)} MiB | ${r.seconds.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} | ` +
				(r.what === 'due'
					? `(${r.lines.toLocaleString('en')} lines out)`
					: `${q.notModified.toLocaleString('en')} / ${q.full.toLocaleString('en')} (${q.audits.toLocaleString('en')}) / ${q.robots}`) +
				` | ${r.status} |`,
		);
	}
	if (flags.json) fs.writeFileSync(flags.json, JSON.stringify({ meta, results }, null, 2));
	process.exitCode = failed ? 1 : 0;
}

/** The store of `n` URLs under `dir` (from `seed`, by default `n`), made unless already there (with --keep). */
async function storeOf(dir, meta, n, origin, seed) {
	const key = seed === undefined || seed === n ? String(n) : `${n}-seed${seed}`;
	const storeDir = path.join(dir, `store-${key}`);
	if (meta.stores[key]) {
		console.log(`store of ${n.toLocaleString('en')} URLs: reused (${storeDir})`);
		return storeDir;
	}
	fs.rmSync(storeDir, { recursive: true, force: true });
	const started = Date.now();
	// The host's record, as real sweeps leave it: one sweep of 20 pages (all new), one a day later (all 304).
	const twenty = Array.from({ length: 20 }, (_, i) => `http://127.0.0.1:${meta.port}/p/${i}\n`).join('');
	for (const [days, what] of [
		[40, 'first'],
		[39, 'second'],
	]) {
		const run = spawn(process.execPath, [CLI, 'sweep', '--store', storeDir, '-q', '--now', String(meta.now - days * DAY)], {
			stdio: ['pipe', 'ignore', 'inherit'],
		});
		run.stdin.end(twenty);
		const [code] = await once(run, 'exit');
		if (code !== 0) throw new Error(`${what} template sweep: exit ${code}`);
	}
	origin.send({ type: 'reset' });
	const { store, template, estimateRate } = await openTemplate(ROOT, storeDir);
	const { verifyBy: _spread, checks: _checks, rate: _rate, ...base } = template;
	const random = mulberry32(seed ?? n);
	const CHUNK = 10_000;
	try {
		for (let from = 0; from < n; from += CHUNK) {
			const operations = [];
			for (let i = from; i < Math.min(n, from + CHUNK); i++) {
				const lastChecked = Math.round(meta.now - random() * 30 * DAY);
				// A few checks a few days apart, one in five finding a change.
				const checks = Array.from({ length: 3 + Math.floor(random() * 4) }, () => Math.round((1 + random() * 6) * 1440) * (random() < 0.2 ? -1 : 1));
				const text = body(i);
				const record = {
					...base,
					etag: etagOf(i),
					hash: createHash('sha256').update(text).digest('hex').slice(0, 32),
					size: Buffer.byteLength(text),
					lastChecked,
					checks,
					rate: estimateRate(checks),
					// Confirmed by a full download some time in the last 30 days, as --verify-every 30d spreads them.
					verifiedAt: Math.min(lastChecked, Math.round(meta.now - random() * 30 * DAY)),
				};
				operations.push({ type: 'put', key: `http://127.0.0.1:${meta.port}/p/${i}`, value: record });
			}
			await store.batch(operations);
			if (from % 1_000_000 === 0 && from > 0) console.log(`  ${from.toLocaleString('en')} records, ${((Date.now() - started) / 1000).toFixed(0)} s`);
		}
	} finally {
		await store.close();
	}
	const seconds = (Date.now() - started) / 1000;
	console.log(`store of ${n.toLocaleString('en')} URLs made in ${seconds.toFixed(1)} s: ${(du(storeDir) / MIB).toFixed(0)} MiB on disk`);
	meta.stores[key] = { seconds };
	fs.writeFileSync(path.join(dir, 'bench.json'), JSON.stringify(meta));
	return storeDir;
}

/** Runs one case on a copy of the store, and measures it. */
async function runCase(dir, meta, storeDir, n, budget, what, origin) {
	const copy = path.join(dir, 'run');
	fs.rmSync(copy, { recursive: true, force: true });
	fs.cpSync(storeDir, copy, { recursive: true });
	origin.send({ type: 'reset' });
	const statsFile = path.join(dir, 'stats.json');
	fs.rmSync(statsFile, { force: true });
	const args =
		what === 'sweep'
			? ['sweep', '--store', copy, '--budget', String(budget), '-q', '--now', String(meta.now)]
			: ['due', '--store', copy, '--budget', String(budget), '--now', String(meta.now)];
	const started = process.hrtime.bigint();
	const traced = trace ? ['--expose-gc', '--import', pathToFileURL(path.join(HERE, 'lib', 'memory-trace.js')).href] : [];
	const child = spawn(process.execPath, [...nodeFlags, ...traced, '--import', HOOK, CLI, ...args], {
		stdio: ['pipe', 'pipe', 'inherit'],
		env: { ...process.env, REVISIT_BENCH_STATS: statsFile, ...(trace ? { REVISIT_BENCH_MEMTRACE: trace } : {}) },
	});
	let lines = 0;
	child.stdout.on('data', (chunk) => {
		for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
	});
	const { peaks, stop: stopPolling } = pollRss(child.pid);
	const exited = once(child, 'exit');
	if (what === 'sweep') await writeUrls(child.stdin, meta.port, n);
	else child.stdin.end();
	const [status] = await exited;
	stopPolling();
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const own = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8')) : {};
	origin.send({ type: 'stats' });
	const [{ stats }] = await once(origin, 'message');
	fs.rmSync(copy, { recursive: true, force: true });
	return {
		urls: n,
		budget,
		what,
		status,
		seconds,
		cpuSeconds: ((own.cpuUserMs ?? 0) + (own.cpuSystemMs ?? 0)) / 1000,
		lines,
		vmHwmMiB: Math.max(own.vmHwmKb ?? 0, peaks.hwm) / 1024,
		anonMiB: peaks.anon / 1024,
		fileMiB: peaks.file / 1024,
		requests: { ...stats, pages: stats.notModified + stats.full },
	};
}

/** Writes the URLs of pages 0..n-1 to `stream`, a chunk at a time, waiting whenever it is full. */
async function writeUrls(stream, port, n) {
	const prefix = `http://127.0.0.1:${port}/p/`;
	stream.on('error', () => {}); // a child that exits early closes its stdin: its status says why
	for (let from = 0; from < n; from += 4096) {
		let chunk = '';
		for (let i = from; i < Math.min(n, from + 4096); i++) chunk += `${prefix}${i}\n`;
		if (!stream.write(chunk)) {
			const closed = await new Promise((resolve) => {
				const done = (value) => () => {
					stream.off('drain', drained);
					stream.off('close', gone);
					resolve(value);
				};
				const drained = done(false);
				const gone = done(true);
				stream.on('drain', drained);
				stream.on('close', gone);
			});
			if (closed) return;
		}
	}
	stream.end();
}

function line(r) {
	const q = r.requests;
	const requests =
		r.what === 'due'
			? `${r.lines} lines out`
			: `${q.notModified} 304s, ${q.full} full (${q.audits} audits, ${q.conditionalFull} conditional answered 200), ${q.robots} robots.txt, ${q.other} other`;
	return (
		`${r.what} --budget ${r.budget} over ${r.urls} URLs: peak RSS ${r.vmHwmMiB.toFixed(1)} MiB (RssAnon ${r.anonMiB.toFixed(1)}, ` +
		`RssFile ${r.fileMiB.toFixed(1)}), ${r.seconds.toFixed(1)} s (CPU ${r.cpuSeconds.toFixed(1)} s), ${requests}, exit ${r.status}`
	);
}

function du(dir) {
	return fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
}

async function freePort() {
	const server = http.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}
