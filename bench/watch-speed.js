// `revisit watch`'s speed, memory and lateness (issue 27: >= 3,000 checks/s all-304 with
// 1M URLs in LevelDB, RSS <= 300 MiB, p99 lateness <= 1 s at 1,000 checks/s). From the
// repository root, after `npm run build`:
//
//   node bench/watch-speed.js                                  # 1M URLs, 16 origins, every case
//   node bench/watch-speed.js --keep /var/tmp/ws --cases speed  # keep the store for the next try
//   node bench/watch-speed.js --urls 100000 --seconds 20        # a quick try
//   node bench/watch-speed.js --keep /var/tmp/ws --cases speed --against ../base   # another build's watch in the same rounds
//
// 1. The origin: nginx (one worker), listening on --origins ports of 127.0.0.1 (16: with
//    the default --per-host 4 and --concurrency 24, origins never bind), answering
//    GET /p/<n> with a 13-byte body and ETag "p<n>", 304 to If-None-Match with it,
//    /robots.txt 404 (robots.txt is obeyed, the default, and fetched once per origin).
//    Its access log has each request's time to the millisecond: the counts and the
//    lateness below are read from it, not from the client.
// 2. The store: two real `revisit sweep`s of page 0 of every origin give each origin its
//    host record and the template of a record; then N records are written through the
//    library (dist/store/level/store.js, `LevelStore.batch`: a strong ETag, the body's hash,
//    lastChecked and verifiedAt in the 5 days before T, a few `checks`, their rate) and
//    every URL put in the watch schedule through the store's own queue
//    (`store.dueQueue(clock).put`), due in the day after T + 1 day. Pages are spread over
//    the origins round robin.
// 3. `speed`: on a fresh copy of the store, `revisit watch -q --rate 1000000/s --now
//    T+3d --until <warm-up + seconds>s` (every URL due and late: the rate does not bind,
//    the queue and the pipeline do), default flags otherwise. Checks/s is the origin's
//    page requests per second over the window after the warm-up; peak RSS is VmHWM
//    (read by the child at exit, and polled from /proc). Then, side by side in the same
//    run, the plain got loop (bench/got-loop.js --concurrency 24, the ETags given) over
//    --got-urls of the same URLs; the ratio is watch checks/s over the loop's.
//    --rounds R repeats both, interleaved. --against TREE runs TREE's bin/revisit.js (built)
//    in each round too, so that a change is measured beside the build before it; the table
//    gives each watch's CPU time per request (every thread, start-up included).
// 4. `late`: on a fresh copy, the first rate × (seconds + 30) URLs are put due from
//    T0 = now + 45 s at one every 1/rate s (the rest stay due days ahead), and at T0 − 15 s
//    `revisit watch -q --rate 1000/s --until <seconds + 15>s` starts on the wall clock. Lateness of a URL is
//    the time nginx logged its request minus its due time: dispatch lateness plus the trip
//    through the run's stages and loopback, an upper bound on what the watch's
//    revisit_lateness_seconds would show.
//
// Exit status 1 when a run failed or a target is missed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { mulberry32 } from './lib/prng.js';
import { freePorts } from './lib/nginx-run.js';
import { startNginxPages } from './lib/nginx-pages.js';
import { pollRss } from './lib/poll-rss.js';
import { countFlag } from './lib/count-flag.js';
import { openTemplate } from './lib/template-record.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const CLI = path.join(ROOT, 'bin/revisit.js');
const HOOK = pathToFileURL(path.join(HERE, 'lib', 'peak-rss.js')).href;
const DAY = 86_400_000;
const MIB = 1024 * 1024;
const body = (n) => `bench page ${n}\n`;
const etagOf = (n) => `"p${n}"`;
const log = (text) => console.error(`[watch-speed ${new Date().toISOString().slice(11, 19)}] ${text}`);

const { values: flags } = parseArgs({
	options: {
		urls: { type: 'string', default: '1000000' },
		origins: { type: 'string', default: '16' },
		seconds: { type: 'string', default: '60' },
		warmup: { type: 'string', default: '15' },
		'got-urls': { type: 'string', default: '200000' },
		rounds: { type: 'string', default: '1' },
		rate: { type: 'string', default: '1000' },
		// The late case's --rate over the rate URLs fall due at (1: none to spare, as in a watch whose threshold has settled).
		headroom: { type: 'string', default: '1' },
		cases: { type: 'string', default: 'speed,late' },
		keep: { type: 'string' },
		// Extra flags for every watch (e.g. --args="--per-host 8"): the figures are for the defaults.
		args: { type: 'string', default: '' },
		// Another build's tree (its bin/revisit.js, after its `npm run build`): its watch runs in each round too, beside this one's.
		against: { type: 'string' },
		// Node flags for the watch (e.g. --node=--cpu-prof --node=--cpu-prof-dir=DIR).
		node: { type: 'string', multiple: true, default: [] },
		json: { type: 'string' },
	},
});
const int = (name) => countFlag(flags, name);
const AGAINST = flags.against ? path.join(path.resolve(flags.against), 'bin/revisit.js') : undefined;
if (AGAINST && !fs.existsSync(AGAINST)) throw new Error(`--against: no ${AGAINST}`);
const N = int('urls');
const ORIGINS = int('origins');
const SECONDS = int('seconds');
const WARMUP = int('warmup');
const GOT_URLS = Math.min(N, int('got-urls'));
const ROUNDS = int('rounds');
const RATE = int('rate');
const CASES = new Set(flags.cases.split(','));
const HEADROOM = Number(flags.headroom);
if (!(HEADROOM >= 1)) throw new TypeError('--headroom must be 1 or more');
const WATCH_RATE = Math.round(RATE * HEADROOM);
const extra = flags.args.split(/\s+/).filter(Boolean);

const dir = flags.keep ? path.resolve(flags.keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-watch-speed-'));
fs.mkdirSync(dir, { recursive: true });
const metaFile = path.join(dir, 'bench.json');
const meta = fs.existsSync(metaFile) ? JSON.parse(fs.readFileSync(metaFile, 'utf8')) : { at: Date.now(), ports: await freePorts(ORIGINS) };
if (meta.ports.length !== ORIGINS) throw new Error(`${dir} was made with ${meta.ports.length} origins`);
fs.writeFileSync(metaFile, JSON.stringify(meta));
const T = meta.at;
const urlOf = (n) => `http://127.0.0.1:${meta.ports[n % ORIGINS]}/p/${n}`;
const indexOf = (url) => Number(url.slice(url.lastIndexOf('/') + 1));

const cleanups = [];
let failed = false;
const out = [];
try {
	const nginx = await startNginxPages(path.join(dir, 'nginx'), meta.ports);
	cleanups.push(() => nginx.close());
	const store = await storeOf(N);
	out.push(
		`bench/watch-speed.js — ${new Date().toISOString()}, ${os.availableParallelism()} CPUs, node ${process.version}, load at start ${os
			.loadavg()
			.map((n) => n.toFixed(2))
			.join(' ')}`,
	);
	out.push(
		`origin: nginx ${nginx.version}, one worker, ${ORIGINS} ports of 127.0.0.1; store: ${N.toLocaleString('en')} URLs (${(du(store) / MIB).toFixed(0)} ` +
			`MiB), ${(N / ORIGINS).toLocaleString('en')} per origin`,
	);
	out.push('');
	if (CASES.has('speed')) {
		const rows = [];
		for (let round = 1; round <= ROUNDS; round++) {
			const whos = flags.against ? ['watch', 'got', 'against'] : ['watch', 'got'];
			const order = round % 2 ? whos : whos.reverse();
			const row = { round };
			for (const who of order) {
				if (who === 'watch') Object.assign(row, await speedCase(nginx, store, round));
				else if (who === 'against') row.against = await speedCase(nginx, store, round, AGAINST);
				else row.got = await gotCase(nginx, round);
			}
			rows.push(row);
			log(
				`round ${round}: watch ${row.checksPerSecond.toFixed(0)}/s, got loop ${row.got.perSecond.toFixed(0)}/s, ` +
					`peak RSS ${row.vmHwmMiB.toFixed(1)} MiB, load ${row.load}` +
					(row.against ? `; against: ${row.against.checksPerSecond.toFixed(0)}/s` : ''),
			);
		}
		out.push(
			(
				`speed: node bin/revisit.js watch --store COPY -q --rate 1000000/s --now ${new Date(T + 3 * DAY).toISOString()} --until ${WARMUP + SECONDS}s ` +
				`${extra.join(' ')}`
			).trimEnd(),
		);
		out.push(`got loop: node bench/got-loop.js --concurrency 24 --etags FILE < ${GOT_URLS.toLocaleString('en')} of the URLs`);
		out.push('');
		if (flags.against) out.push(`against: ${AGAINST} (the watch of the tree at ${flags.against})`);
		out.push('');
		out.push(
			'| round | watch | checks/s | got loop /s | watch / got | peak RSS (VmHWM) ' +
				'| RssAnon peak | RssFile peak | CPU s | CPU ms / request | 304 / 200 / other | load |',
		);
		out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
		for (const r of rows) {
			for (const [name, w] of [['this tree', r], ...(r.against ? [['against', r.against]] : [])]) {
				out.push(
					`| ${r.round} | ${name} | ${w.checksPerSecond.toFixed(0)} | ${r.got.perSecond.toFixed(0)} | ` +
						`${(w.checksPerSecond / r.got.perSecond).toFixed(2)}x | ${w.vmHwmMiB.toFixed(1)} MiB | ${w.anonMiB.toFixed(1)} MiB | ` +
						`${w.fileMiB.toFixed(1)} MiB | ${w.cpuSeconds.toFixed(1)} | ${((w.cpuSeconds * 1000) / w.requests).toFixed(2)} | ${w.statuses} | ` +
						`${w.load} |`,
				);
				out.push(`|   | ${name} per second: ${w.perSecond.join(' ')} | | | | | | | | | | |`);
			}
			if (r.status !== 0 || r.checksPerSecond < 0.9 * r.got.perSecond || r.vmHwmMiB > 300) failed = true;
		}
		out.push('');
	}
	if (CASES.has('late')) {
		const r = await lateCase(nginx, store);
		out.push(
			`late: node bin/revisit.js watch --store COPY -q --rate ${WATCH_RATE}/s --until ${SECONDS + 15}s ${extra.join(' ')}`.trimEnd() +
				`; URLs due at ${RATE}/s from 15 s after the start`,
		);
		out.push('');
		out.push('| requests | rate seen /s | p50 | p90 | p99 | p99.9 | max | peak RSS | load |');
		out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---|');
		out.push(
			`| ${r.count} | ${r.rate.toFixed(0)} | ${r.p50} ms | ${r.p90} ms | ${r.p99} ms | ${r.p999} ms | ${r.max} ms | ${r.vmHwmMiB.toFixed(1)} MiB | ${r.load} |`,
		);
		if (r.status !== 0 || !(r.p99 <= 1000)) failed = true;
		out.push('');
	}
	process.stdout.write(`${out.join('\n')}\n`);
	if (flags.json) fs.writeFileSync(flags.json, JSON.stringify({ meta, out }, null, 2));
} finally {
	for (const cleanup of cleanups.reverse()) await cleanup();
	if (!flags.keep) fs.rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

// ---------------------------------------------------------------------------------------

/** The pristine store of `n` URLs under `dir`, made unless already there (with --keep). */
async function storeOf(n) {
	const storeDir = path.join(dir, `store-${n}`);
	if (meta.stores?.[n]) {
		log(`store of ${n.toLocaleString('en')} URLs: reused (${storeDir})`);
		return storeDir;
	}
	fs.rmSync(storeDir, { recursive: true, force: true });
	const started = Date.now();
	// Every origin's host record, as real sweeps leave it: page 0 of each, then again a day later (all 304).
	const firsts = meta.ports.map((port) => `http://127.0.0.1:${port}/p/0\n`).join('');
	for (const [days, what] of [
		[10, 'first'],
		[9, 'second'],
	]) {
		const run = spawn(process.execPath, [CLI, 'sweep', '--store', storeDir, '-q', '--now', String(T - days * DAY)], { stdio: ['pipe', 'ignore', 'inherit'] });
		run.stdin.end(firsts);
		const [code] = await once(run, 'exit');
		if (code !== 0) throw new Error(`${what} template sweep: exit ${code}`);
	}
	const { store, template, estimateRate } = await openTemplate(ROOT, storeDir);
	const hashOf = (text) => createHash('sha256').update(text).digest('hex').slice(0, 32);
	if (template.hash !== hashOf(body(0))) throw new Error(`the store's hash of page 0 is ${template.hash}, not ${hashOf(body(0))}: change hashOf`);
	const { verifyBy: _v, checks: _c, rate: _r, ...base } = template;
	const random = mulberry32(n);
	const queue = await store.dueQueue({ at0: T, wall0: T, scale: 1 });
	const CHUNK = 10_000;
	try {
		for (let from = 0; from < n; from += CHUNK) {
			const records = [];
			const entries = [];
			for (let i = from; i < Math.min(n, from + CHUNK); i++) {
				const lastChecked = Math.round(T - random() * 5 * DAY);
				const checks = Array.from({ length: 3 + Math.floor(random() * 4) }, () => Math.round((1 + random() * 6) * 1440) * (random() < 0.2 ? -1 : 1));
				const text = body(i);
				const rate = estimateRate(checks);
				records.push({
					type: 'put',
					key: urlOf(i),
					value: { ...base, etag: etagOf(i), hash: hashOf(text), size: Buffer.byteLength(text), lastChecked, checks, rate, verifiedAt: lastChecked },
				});
				entries.push({ url: urlOf(i), origin: urlOf(i).slice(0, urlOf(i).indexOf('/p/')), due: Math.round(T + DAY + random() * DAY), rate });
			}
			await store.batch(records);
			await queue.put(entries);
			if ((from + CHUNK) % 100_000 === 0)
				log(`  ${(from + CHUNK).toLocaleString('en')} records and schedule entries, ${((Date.now() - started) / 1000).toFixed(0)} s`);
		}
	} finally {
		await store.close();
	}
	log(`store of ${n.toLocaleString('en')} URLs made in ${((Date.now() - started) / 1000).toFixed(0)} s: ${(du(storeDir) / MIB).toFixed(0)} MiB`);
	meta.stores = { ...meta.stores, [n]: true };
	fs.writeFileSync(metaFile, JSON.stringify(meta));
	return storeDir;
}

function du(target) {
	let total = 0;
	for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
		const full = path.join(target, entry.name);
		total += entry.isDirectory() ? du(full) : fs.statSync(full).size;
	}
	return total;
}

function copyOf(store) {
	const copy = path.join(dir, 'run');
	fs.rmSync(copy, { recursive: true, force: true });
	fs.cpSync(store, copy, { recursive: true });
	return copy;
}

/** Runs the CLI with `args`, polling its memory; resolves with its status, peaks and CPU. */
async function watched(args, stdin = 'ignore', cli = CLI) {
	const statsFile = path.join(dir, 'stats.json');
	fs.rmSync(statsFile, { force: true });
	const child = spawn(process.execPath, [...flags.node, '--import', HOOK, cli, ...args], {
		stdio: [stdin, 'ignore', 'pipe'],
		env: { ...process.env, REVISIT_BENCH_STATS: statsFile },
	});
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
	const { peaks, stop: stopPolling } = pollRss(child.pid);
	const [status] = await once(child, 'exit');
	stopPolling();
	const own = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8')) : {};
	if (status !== 0) log(`watch exited ${status}: ${stderr}`);
	return {
		status,
		stderr,
		vmHwmMiB: Math.max(own.vmHwmKb ?? 0, peaks.hwm) / 1024,
		anonMiB: peaks.anon / 1024,
		fileMiB: peaks.file / 1024,
		cpuSeconds: ((own.cpuUserMs ?? 0) + (own.cpuSystemMs ?? 0)) / 1000,
	};
}

function load() {
	return os
		.loadavg()
		.map((n) => n.toFixed(1))
		.join(' ');
}

async function speedCase(nginx, store, round, cli = CLI) {
	const copy = copyOf(store);
	const read = nginx.mark();
	const load0 = load();
	const args = ['watch', '--store', copy, '-q', '--rate', '1000000/s', '--now', String(T + 3 * DAY), '--until', `${WARMUP + SECONDS}s`, ...extra];
	log(`round ${round}: node ${path.relative(process.cwd(), cli)} ${args.join(' ')}`);
	const run = await watched(args, 'ignore', cli);
	const lines = await read();
	const pages = lines.filter((l) => l.uri.startsWith('/p/'));
	const start = pages[0]?.ms ?? 0;
	// The window: after the warm-up, up to the last full second before the end.
	const perSecond = [];
	for (let s = WARMUP; s < WARMUP + SECONDS - 1; s++) perSecond.push(pages.filter((l) => l.ms >= start + s * 1000 && l.ms < start + (s + 1) * 1000).length);
	const total = perSecond.reduce((a, b) => a + b, 0);
	const statuses = [304, 200].map((code) => pages.filter((l) => l.status === code).length);
	return {
		...run,
		checksPerSecond: total / perSecond.length,
		perSecond,
		requests: pages.length,
		statuses: `${statuses.join(' / ')} / ${pages.length - statuses[0] - statuses[1]}`,
		load: `${load0} → ${load()}`,
	};
}

async function gotCase(nginx, round) {
	// Every N/GOT_URLS-th URL, so that they are spread over the origins as the watch's are.
	const step = Math.max(1, Math.floor(N / GOT_URLS));
	const list = [];
	for (let i = 0; list.length < GOT_URLS && i < N; i += step) list.push(i);
	const urls = path.join(dir, 'got-urls.txt');
	const etags = path.join(dir, 'got-etags.json');
	fs.writeFileSync(urls, list.map((i) => `${urlOf(i)}\n`).join(''));
	fs.writeFileSync(etags, JSON.stringify(list.map((i) => [urlOf(i), etagOf(i)])));
	const fd = fs.openSync(urls, 'r');
	const read = nginx.mark();
	const child = spawn(process.execPath, [path.join(HERE, 'got-loop.js'), '--concurrency', '24', '--etags', etags], { stdio: [fd, 'ignore', 'pipe'] });
	fs.closeSync(fd);
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const [code] = await once(child, 'exit');
	const summary = JSON.parse(stderr.trim().split('\n').at(-1));
	const lines = await read();
	log(`round ${round}: got loop over ${list.length} URLs: ${summary.ms} ms, exit ${code}, ${lines.filter((l) => l.status === 304).length} 304s`);
	return { perSecond: (list.length / summary.ms) * 1000, ...summary };
}

async function lateCase(nginx, store) {
	const copy = copyOf(store);
	const K = RATE * (SECONDS + 30);
	// Put 45 s ahead (a loaded machine may take half a minute to put them), and the watch started 15 s before T0.
	const T0 = Date.now() + 45_000;
	{
		// The first K URLs due from T0 on, one every 1/RATE s; the rest stay due a day ahead and more.
		const { LevelStore } = await import(pathToFileURL(path.join(ROOT, 'dist/store/level/store.js')).href);
		const opened = await LevelStore.open(copy);
		const queue = await opened.dueQueue({ at0: Date.now(), wall0: Date.now(), scale: 1 });
		for (let from = 0; from < K; from += 10_000) {
			const entries = [];
			for (let i = from; i < Math.min(K, from + 10_000); i++)
				entries.push({ url: urlOf(i), origin: urlOf(i).slice(0, urlOf(i).indexOf('/p/')), due: T0 + (i * 1000) / RATE, rate: 0.2 });
			await queue.put(entries);
		}
		await opened.close();
	}
	if (Date.now() > T0 - 3000) throw new Error('putting the lateness case took too long');
	if (T0 - 15_000 > Date.now()) await new Promise((resolve) => setTimeout(resolve, T0 - 15_000 - Date.now()));
	const read = nginx.mark();
	const load0 = load();
	const args = ['watch', '--store', copy, '-q', '--rate', `${WATCH_RATE}/s`, '--until', `${SECONDS + 15}s`, ...extra];
	log(`late: node bin/revisit.js ${args.join(' ')} (first due ${new Date(T0).toISOString()})`);
	const run = await watched(args);
	const pages = (await read()).filter((l) => l.uri.startsWith('/p/'));
	// Audits ask a page a second time, unconditionally: its first request is the dispatch.
	const seen = new Set();
	const late = [];
	for (const l of pages) {
		const i = indexOf(l.uri);
		if (seen.has(i) || i >= K) continue;
		seen.add(i);
		late.push(Math.max(0, l.ms - (T0 + (i * 1000) / RATE)));
	}
	late.sort((a, b) => a - b);
	const q = (p) => Math.round(late[Math.min(late.length - 1, Math.floor(p * late.length))] ?? NaN);
	// How it goes over the run: a lateness that only grows is a dispatcher that fell behind the rate for good.
	const segments = [];
	const first = pages[0]?.ms ?? 0;
	for (const l of pages) {
		const i = indexOf(l.uri);
		if (i >= K) continue;
		const s = Math.floor((l.ms - first) / 5_000);
		(segments[s] ??= []).push(Math.max(0, l.ms - (T0 + (i * 1000) / RATE)));
	}
	log(
		`lateness by 5 s of the run, p50/p99 ms (requests): ` +
			segments.map((v) => `${Math.round(v.sort((a, b) => a - b)[v.length >> 1])}/${Math.round(v[Math.floor(0.99 * v.length)])} (${v.length})`).join(' '),
	);
	const span = (pages.at(-1)?.ms ?? 0) - (pages[0]?.ms ?? 0);
	return {
		...run,
		count: late.length,
		rate: (pages.length / span) * 1000,
		p50: q(0.5),
		p90: q(0.9),
		p99: q(0.99),
		p999: q(0.999),
		max: Math.round(late.at(-1) ?? NaN),
		load: `${load0} → ${load()}`,
	};
}
