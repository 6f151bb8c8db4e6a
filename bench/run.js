// revisit benchmark: `npm run bench` (builds, then runs this) or `node bench/run.js [--quick]`.
//
// 1. Throughput. A local origin (bench/origin.js, its own child process, 127.0.0.1,
//    ephemeral port) serves N pages with strong ETags. Each repetition times, wall clock
//    from spawn to exit, four child processes:
//      revisit first sweep  node bin/revisit.js sweep --store <fresh tmp> -q --concurrency C --per-host C
//                           (+ --audit 0 --method get where the CLI has them: the baseline
//                           neither audits 304s nor sends HEADs, so neither does revisit here)
//      revisit second sweep the same command on the same store (every URL answers 304)
//      got first pass       node bench/got-loop.js --concurrency C   (unconditional GETs)
//      got second pass      the same, sending If-None-Match from the first pass's ETags
//    The origin is a single host, so --per-host is set equal to --concurrency: both
//    clients then keep C requests in flight. Repetitions rotate which client goes first;
//    the table reports the median of each figure.
// 2. Memory and streaming. M lines (D distinct URLs, each M/D times, shuffled with a
//    seeded PRNG) are written into `revisit sweep`'s stdin through a pipe, honouring
//    backpressure. Reports the child's peak RSS (VmHWM: read by the child itself at exit
//    via bench/lib/peak-rss.js, and polled from /proc/<pid>/status meanwhile; the larger
//    is kept), the time of the first stdout byte and the time stdin was fully written.
//    A first sweep (all new); with --memory-passes 2, also a second sweep (all 304).
//
// revisit is measured from a snapshot of bin/ + dist/ taken at start (in bench/.tmp/), so
// a rebuild of dist/ while the bench runs can't mix two builds in one set of figures.
//
// Options: --quick (2,000 pages, 100,000 lines / 20,000 distinct, 2 memory passes),
// --pages N, --lines N, --distinct N, --reps N (3), --concurrency N (24), --no-memory,
// --no-throughput, --memory-passes N (default 1), --revisit-args "..." (extra sweep
// flags), --node-options "..." (extra node flags for revisit children), --candidate DIR
// (a second build, a directory with bin/revisit.js and dist/, measured alongside as
// "candidate": for A/B-testing a fix), --build DIR (measure that build as "revisit"
// instead of a snapshot of this one), --trace-memory (heap samples with forced GCs),
// --no-snapshot, --keep-tmp, --json FILE (raw results; default bench/.tmp/results-*.json).
// Exit status 1 when a target is missed or a run did not produce the expected responses.
// Only 127.0.0.1 is contacted. Every child has a hard timeout.
import { closeChild } from './lib/child.js';
import { fork, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { mulberry32 } from './lib/prng.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const GOT_LOOP = path.join(HERE, 'got-loop.js');
const ORIGIN = path.join(HERE, 'origin.js');
const HOOK = pathToFileURL(path.join(HERE, 'lib', 'peak-rss.js')).href;
const MEMTRACE = pathToFileURL(path.join(HERE, 'lib', 'memory-trace.js')).href;
const SCRATCH = path.join(HERE, '.tmp'); // git-ignored

const { values: flags } = parseArgs({
	options: {
		quick: { type: 'boolean', default: false },
		pages: { type: 'string' },
		lines: { type: 'string' },
		distinct: { type: 'string' },
		reps: { type: 'string' },
		concurrency: { type: 'string' },
		'no-memory': { type: 'boolean', default: false },
		'no-throughput': { type: 'boolean', default: false },
		'memory-passes': { type: 'string' },
		'revisit-args': { type: 'string' },
		'node-options': { type: 'string' },
		candidate: { type: 'string' },
		build: { type: 'string' },
		'trace-memory': { type: 'boolean', default: false },
		'no-snapshot': { type: 'boolean', default: false },
		'keep-tmp': { type: 'boolean', default: false },
		json: { type: 'string' },
	},
});
const int = (name, value, fallback) => {
	const number = Number(value ?? fallback);
	if (!Number.isInteger(number) || number < 1) throw new TypeError(`--${name} must be a positive integer (got ${value})`);
	return number;
};
const words = (text) => (text ? text.split(/\s+/).filter(Boolean) : []);
const config = {
	quick: flags.quick,
	pages: int('pages', flags.pages, flags.quick ? 2_000 : 20_000),
	lines: int('lines', flags.lines, flags.quick ? 100_000 : 1_000_000),
	distinct: int('distinct', flags.distinct, flags.quick ? 20_000 : 200_000),
	reps: int('reps', flags.reps, 3),
	concurrency: int('concurrency', flags.concurrency, 24),
	throughput: !flags['no-throughput'],
	memory: !flags['no-memory'],
	memoryPasses: int('memory-passes', flags['memory-passes'], flags.quick ? 2 : 1),
	nodeOptions: words(flags['node-options']),
	traceMemory: flags['trace-memory'],
	candidate: flags.candidate ? path.resolve(flags.candidate) : undefined,
	seed: 0x5eed_1234,
};
if (config.distinct > config.lines) throw new TypeError('--distinct must not exceed --lines');
if (config.candidate && !fs.existsSync(path.join(config.candidate, 'bin', 'revisit.js')))
	throw new TypeError(`--candidate: no bin/revisit.js in ${config.candidate}`);

const RSS_TARGET_KB = 256 * 1024; // 256 MiB
const RATIO_TARGET = 0.8;
const THROUGHPUT_TIMEOUT_MS = 300_000;
const MEMORY_TIMEOUT_MS = 900_000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-bench-'));
const benchStarted = performance.now();
const log = (text) => process.stderr.write(`[bench ${((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4)}s] ${text}\n`);

// ---------------------------------------------------------------------------------------
// The build under test

const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', timeout: 10_000 }).stdout?.trim() ?? '';
config.git = { commit: git('rev-parse', '--short', 'HEAD'), dirtySrcFiles: git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean).length };

/** Copies bin/, dist/ and package.json under bench/.tmp/ (node_modules resolves from the project). */
function snapshotBuild() {
	const dir = path.join(SCRATCH, `build-${process.pid}`);
	fs.rmSync(dir, { recursive: true, force: true });
	for (const part of ['bin', 'dist']) fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
	fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
	return dir;
}
const buildDir = flags.build ? path.resolve(flags.build) : flags['no-snapshot'] ? ROOT : snapshotBuild();
config.build = flags.build ? buildDir : undefined; // another build: this checkout's commit says nothing about it
const BINS = {
	revisit: path.join(buildDir, 'bin', 'revisit.js'),
	...(config.candidate ? { candidate: path.join(config.candidate, 'bin', 'revisit.js') } : {}),
};
const REVISIT_TOOLS = Object.keys(BINS);

// Like for like with the got loop: no random audit re-fetches and no verification downloads
// (the baseline does neither) and plain GETs, passed explicitly where each build has the
// flags. --revisit-args adds more.
const fairArgsOf = (bin) => {
	const help = spawnSync(process.execPath, [bin, 'sweep', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 }).stdout ?? '';
	const when = (flag, ...args) => (help.includes(flag) ? [flag, ...args] : []);
	return [...when('--audit', '0'), ...when('--method', 'get'), ...when('--verify-every', 'off')];
};
const fairArgs = Object.fromEntries(REVISIT_TOOLS.map((tool) => [tool, fairArgsOf(BINS[tool])]));
const C = String(config.concurrency);
const sweepArgs = (store, tool = 'revisit') => [
	'sweep',
	'--store',
	store,
	'-q',
	'--concurrency',
	C,
	'--per-host',
	C,
	...fairArgs[tool],
	...words(flags['revisit-args']),
];
config.revisitCommand = `node bin/revisit.js ${sweepArgs('<tmp store>').join(' ')} < urls`;
config.gotCommand = `node bench/got-loop.js --concurrency ${C} --etags <tmp file> < urls`;

// ---------------------------------------------------------------------------------------
// Origin

async function startOrigin(pages) {
	const child = fork(ORIGIN, [String(pages)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const [ready] = await Promise.race([once(child, 'message'), once(child, 'exit').then(() => Promise.reject(new Error('origin exited before listening')))]);
	if (ready?.type !== 'ready') throw new Error(`origin: unexpected message ${JSON.stringify(ready)}`);
	const base = `http://127.0.0.1:${ready.port}`;
	return {
		base,
		pageBytes: ready.pageBytes,
		url: (n) => `${base}/p/${n}`,
		async stats() {
			const reply = once(child, 'message');
			child.send({ type: 'stats' });
			const [message] = await reply;
			return message;
		},
		close: () => closeChild(child),
	};
}

// ---------------------------------------------------------------------------------------
// Running one measured child

let childSeq = 0;

function readVmHwmKb(pid) {
	try {
		const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Spawns `node --import peak-rss.js <script> ...args`, with stdin from a file or from
 * `writeStdin(stream)`, and reports wall time, stdout line count, first stdout byte,
 * stdin completion, peak RSS and CPU time.
 */
async function runChild({ script, args, stdinFile, writeStdin, timeoutMs, nodeArgs = [], env = {} }) {
	const statsFile = path.join(tmp, `child-${++childSeq}.json`);
	const stdinFd = stdinFile ? fs.openSync(stdinFile, 'r') : undefined;
	const started = performance.now();
	const child = spawn(process.execPath, [...nodeArgs, '--import', HOOK, script, ...args], {
		cwd: ROOT,
		env: { ...process.env, ...env, REVISIT_BENCH_STATS: statsFile },
		stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
	});
	if (stdinFd !== undefined) fs.closeSync(stdinFd);

	const result = { exitCode: null, signal: null, wallMs: 0, stdoutBytes: 0, stdoutLines: 0, firstStdoutMs: undefined, stdinDoneMs: undefined, stderr: '' };
	let polledKb = 0;
	const poll = setInterval(() => {
		const kb = readVmHwmKb(child.pid);
		if (kb !== undefined && kb > polledKb) polledKb = kb;
	}, 25);
	const killer = setTimeout(() => {
		result.timedOut = true;
		child.kill('SIGKILL');
	}, timeoutMs);

	child.stdout.on('data', (chunk) => {
		result.firstStdoutMs ??= performance.now() - started;
		result.stdoutBytes += chunk.length;
		for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) result.stdoutLines++;
	});
	child.stderr.on('data', (chunk) => {
		if (result.stderr.length < 16_384) result.stderr += chunk.toString();
	});
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			result.wallMs = performance.now() - started;
			result.exitCode = code;
			result.signal = signal;
			resolve();
		}),
	);
	const closed = once(child, 'close');

	if (writeStdin) {
		child.stdin.on('error', () => {}); // EPIPE if the child dies early: the exit status tells.
		try {
			await writeStdin(child.stdin);
			await new Promise((resolve) => child.stdin.end(resolve));
			result.stdinDoneMs = performance.now() - started;
		} catch (error) {
			result.stdinError = String(error?.message ?? error);
		}
	}
	await exited;
	await closed;
	clearInterval(poll);
	clearTimeout(killer);

	let own = {};
	try {
		own = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
	} catch {
		// Killed before its exit hook ran: only the polled figure is known.
	}
	result.peakRssKb = Math.max(polledKb, own.vmHwmKb ?? 0, own.maxRssKb ?? 0);
	result.peakRssPolledKb = polledKb;
	result.peakRssSelfKb = own.vmHwmKb ?? own.maxRssKb;
	result.cpuMs = own.cpuUserMs === undefined ? undefined : own.cpuUserMs + own.cpuSystemMs;
	return result;
}

/** Writes `lines` (an iterator of strings) to a pipe, 1,000 lines per write, waiting for drain. */
async function writeAll(stream, lines) {
	let closed = false;
	const onClose = () => {
		closed = true;
		stream.emit('drain'); // wake a pending wait; the loop then sees `closed`
	};
	stream.once('close', onClose);
	try {
		let batch = [];
		const flush = async () => {
			const text = batch.join('');
			batch = [];
			if (!stream.write(text) && !closed) await once(stream, 'drain');
			if (closed) throw new Error('stdin closed before all lines were written');
		};
		for (const line of lines) {
			batch.push(line);
			if (batch.length === 1000) await flush();
		}
		if (batch.length > 0) await flush();
	} finally {
		stream.off('close', onClose);
	}
}

// ---------------------------------------------------------------------------------------
// Helpers

const median = (values) => {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return NaN;
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a');
const mib = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(1) : 'n/a');

async function withOriginDelta(origin, run) {
	const before = await origin.stats();
	const result = await run();
	const after = await origin.stats();
	result.origin = {
		ok: after.ok - before.ok,
		notModified: after.notModified - before.notModified,
		notFound: after.notFound - before.notFound,
		cpuMs: after.cpuMs - before.cpuMs,
	};
	return result;
}

function check(result, expect) {
	const problems = [];
	if (result.timedOut) problems.push('timed out');
	if (result.exitCode !== 0) problems.push(`exit ${result.exitCode ?? result.signal}`);
	if (result.stdinError) problems.push(`stdin: ${result.stdinError}`);
	if (result.origin.ok !== expect.ok) problems.push(`origin served ${result.origin.ok} 200s, expected ${expect.ok}`);
	if (result.origin.notModified !== expect.notModified) problems.push(`origin served ${result.origin.notModified} 304s, expected ${expect.notModified}`);
	if (result.origin.notFound !== 0) problems.push(`origin served ${result.origin.notFound} 404s`);
	if (result.stdoutLines !== expect.stdoutLines) problems.push(`${result.stdoutLines} stdout lines, expected ${expect.stdoutLines}`);
	result.problems = problems;
	if (problems.length > 0) log(`  WARNING: ${problems.join('; ')}${result.stderr ? `\n  stderr: ${result.stderr.trim().slice(0, 2000)}` : ''}`);
	return result;
}

/** Prints ~12 evenly spaced samples of a --trace-memory file (MiB). */
function printTrace(pass, file) {
	let samples = [];
	try {
		samples = fs
			.readFileSync(file, 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
	} catch {
		log('  no memory trace');
		return;
	}
	const m = (bytes) => (bytes === undefined ? '-' : (bytes / 2 ** 20).toFixed(1)).padStart(8);
	const step = Math.max(1, Math.floor(samples.length / 12));
	log(`  memory trace, pass ${pass} (MiB; live* = after a forced full GC)`);
	log(`      s      rss    VmHWM  heapTot heapUsed external liveHeap  liveExt`);
	for (const [i, s] of samples.entries()) {
		if (i % step !== 0 && i !== samples.length - 1) continue;
		log(
			`  ${(s.ms / 1000).toFixed(0).padStart(5)} ${m(s.rss)} ${m(s.hwm)} ${m(s.heapTotal)} ${m(s.heapUsed)} ${m(s.external)} ${m(s.liveHeapUsed)} ` +
				`${m(s.liveExternal)}`,
		);
	}
}

function machine() {
	const cpus = os.cpus();
	return {
		nproc: os.availableParallelism?.() ?? cpus.length,
		cpu: cpus[0]?.model ?? 'unknown',
		memTotalMiB: Math.round(os.totalmem() / 2 ** 20),
		node: process.version,
		platform: `${os.platform()} ${os.release()}`,
		loadAtStart: os
			.loadavg()
			.map((n) => n.toFixed(2))
			.join(' '),
	};
}

// ---------------------------------------------------------------------------------------
// Main

const origin = await startOrigin(Math.max(config.pages, config.distinct));
const results = { config, machine: machine(), startedAt: new Date().toISOString(), startup: {}, throughput: [], memory: [] };

try {
	log(`origin ${origin.base} serving ${fmt(Math.max(config.pages, config.distinct))} pages of ~${fmt(origin.pageBytes)} bytes; tmp ${tmp}`);
	log(`machine: ${results.machine.nproc} CPUs (${results.machine.cpu}), node ${process.version}, load ${results.machine.loadAtStart}`);
	log(
		`revisit: ${config.revisitCommand} (` +
			(config.build ? `build ${config.build}` : `build snapshot ${path.relative(ROOT, buildDir) || '.'}, commit ${config.git.commit}`) +
			`)`,
	);

	const runTool = (tool, store, etags, stdinFile, nodeArgs = config.nodeOptions) =>
		tool === 'got'
			? runChild({ script: GOT_LOOP, args: ['--concurrency', C, ...(etags ? ['--etags', etags] : [])], stdinFile, timeoutMs: THROUGHPUT_TIMEOUT_MS })
			: runChild({ script: BINS[tool], args: sweepArgs(store, tool), stdinFile, timeoutMs: THROUGHPUT_TIMEOUT_MS, nodeArgs });

	if (config.throughput) {
		const urlsFile = path.join(tmp, 'urls.txt');
		fs.writeFileSync(urlsFile, Array.from({ length: config.pages }, (_, n) => `${origin.url(n)}\n`).join(''));
		const emptyFile = path.join(tmp, 'empty.txt');
		fs.writeFileSync(emptyFile, '');
		const warmFile = path.join(tmp, 'warm.txt');
		fs.writeFileSync(warmFile, Array.from({ length: Math.min(500, config.pages) }, (_, n) => `${origin.url(n)}\n`).join(''));
		const tools = [...REVISIT_TOOLS, 'got'];

		// Warm-up (page cache for node_modules and the build): not measured.
		log('warm-up');
		for (const tool of tools) {
			for (let pass = 1; pass <= 2; pass++) await runTool(tool, path.join(tmp, `store-warm-${tool}`), path.join(tmp, 'etags-warm.json'), warmFile);
		}

		// Fixed cost of a run with no URLs: process start, module loading, store open.
		const startup = Object.fromEntries(tools.map((tool) => [tool, []]));
		for (let i = 0; i < 3; i++) {
			for (const tool of tools) startup[tool].push((await runTool(tool, path.join(tmp, `store-empty-${tool}-${i}`), undefined, emptyFile)).wallMs);
		}
		results.startup = Object.fromEntries(tools.map((tool) => [tool, median(startup[tool])]));
		log(`startup with empty input (ms): ${tools.map((tool) => `${tool} ${fmt(results.startup[tool])}`).join(', ')}`);

		for (let rep = 1; rep <= config.reps; rep++) {
			// Rotate the order, so no client always runs first (or right after the same one).
			const order = tools.map((_, i) => tools[(i + rep - 1) % tools.length]);
			for (const pass of [1, 2]) {
				for (const tool of order) {
					const store = path.join(tmp, `store-${tool}-${rep}`);
					const etags = path.join(tmp, `etags-${rep}.json`);
					const expect = pass === 1 ? { ok: config.pages, notModified: 0, stdoutLines: config.pages } : { ok: 0, notModified: config.pages, stdoutLines: 0 };
					const result = check(await withOriginDelta(origin, () => runTool(tool, store, etags, urlsFile)), expect);
					const row = {
						rep,
						pass,
						tool,
						wallMs: result.wallMs,
						urlsPerSec: config.pages / (result.wallMs / 1000),
						cpuMs: result.cpuMs,
						cpuUsPerUrl: result.cpuMs === undefined ? undefined : (result.cpuMs * 1000) / config.pages,
						originCpuMs: result.origin.cpuMs,
						peakRssKb: result.peakRssKb,
						valid: result.problems.length === 0,
						problems: result.problems,
					};
					results.throughput.push(row);
					log(
						`rep ${rep} pass ${pass} ${tool.padEnd(9)} ${fmt(row.wallMs).padStart(6)} ms ${fmt(row.urlsPerSec).padStart(6)} URLs/s  ` +
							`client CPU ${fmt(row.cpuUsPerUrl)} µs/URL  origin CPU ${fmt(row.originCpuMs)} ms  peak RSS ${mib(row.peakRssKb)} MiB`,
					);
				}
			}
			for (const tool of REVISIT_TOOLS) fs.rmSync(path.join(tmp, `store-${tool}-${rep}`), { recursive: true, force: true });
		}
	}

	if (config.memory) {
		const random = mulberry32(config.seed);
		const order = new Uint32Array(config.lines);
		for (let i = 0; i < config.lines; i++) order[i] = i % config.distinct;
		for (let i = order.length - 1; i > 0; i--) {
			const j = Math.floor(random() * (i + 1));
			const t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		function* lines() {
			for (let i = 0; i < order.length; i++) yield `${origin.url(order[i])}\n`;
		}
		const store = path.join(tmp, 'store-memory');
		for (let pass = 1; pass <= config.memoryPasses; pass++) {
			log(`memory pass ${pass}: ${fmt(config.lines)} lines (${fmt(config.distinct)} distinct URLs) into revisit sweep's stdin`);
			const traceFile = path.join(tmp, `memtrace-${pass}.ndjson`);
			const trace = config.traceMemory
				? { nodeArgs: ['--expose-gc', '--import', MEMTRACE], env: { REVISIT_BENCH_MEMTRACE: traceFile } }
				: { nodeArgs: [], env: {} };
			const result = await withOriginDelta(origin, () =>
				runChild({
					script: BINS.revisit,
					args: sweepArgs(store),
					writeStdin: (stream) => writeAll(stream, lines()),
					timeoutMs: MEMORY_TIMEOUT_MS,
					nodeArgs: [...config.nodeOptions, ...trace.nodeArgs],
					env: trace.env,
				}),
			);
			if (config.traceMemory) printTrace(pass, traceFile);
			check(
				result,
				pass === 1 ? { ok: config.distinct, notModified: 0, stdoutLines: config.distinct } : { ok: 0, notModified: config.distinct, stdoutLines: 0 },
			);
			const row = {
				pass,
				wallMs: result.wallMs,
				linesPerSec: config.lines / (result.wallMs / 1000),
				urlsPerSec: config.distinct / (result.wallMs / 1000),
				peakRssKb: result.peakRssKb,
				peakRssPolledKb: result.peakRssPolledKb,
				peakRssSelfKb: result.peakRssSelfKb,
				cpuMs: result.cpuMs,
				firstStdoutMs: result.firstStdoutMs,
				stdinDoneMs: result.stdinDoneMs,
				stdoutLines: result.stdoutLines,
				originCpuMs: result.origin.cpuMs,
				valid: result.problems.length === 0,
				problems: result.problems,
			};
			results.memory.push(row);
			log(
				`memory pass ${pass}: ${fmt(row.wallMs)} ms, ${fmt(row.urlsPerSec)} distinct URLs/s, peak RSS ${mib(row.peakRssKb)} MiB ` +
					(`(self ${mib(row.peakRssSelfKb)}, polled ${mib(row.peakRssPolledKb)}), first stdout ${fmt(row.firstStdoutMs)} ms, ` +
						`stdin done ${fmt(row.stdinDoneMs)} ms`),
			);
		}
	}
} finally {
	await origin.close();
	if (flags['keep-tmp']) log(`kept ${tmp}`);
	else fs.rmSync(tmp, { recursive: true, force: true });
	if (buildDir !== ROOT && !flags.build) fs.rmSync(buildDir, { recursive: true, force: true });
}

results.totalMs = performance.now() - benchStarted;
report(results);
const jsonFile = flags.json ?? path.join(SCRATCH, `results-${results.startedAt.replaceAll(':', '-')}.json`);
fs.mkdirSync(path.dirname(jsonFile), { recursive: true });
fs.writeFileSync(jsonFile, `${JSON.stringify(results, null, '\t')}\n`);
log(`raw results: ${path.relative(process.cwd(), jsonFile)}`);

// ---------------------------------------------------------------------------------------
// Report

function report({ config: cfg, machine: m, throughput, memory, startup, totalMs }) {
	const out = [];
	out.push('');
	out.push(`revisit benchmark — ${new Date().toISOString()}${cfg.quick ? ' (--quick)' : ''}`);
	out.push(`machine: ${m.nproc} CPUs (${m.cpu}), ${fmt(m.memTotalMiB)} MiB RAM, node ${m.node}, ${m.platform}; load average at start ${m.loadAtStart}`);
	out.push(`origin: 127.0.0.1, own process, ~${fmt(origin.pageBytes)}-byte pages, strong ETags, 304 on If-None-Match`);
	const built = cfg.build
		? `build ${cfg.build}`
		: `commit ${cfg.git.commit}${cfg.git.dirtySrcFiles > 0 ? `, ${cfg.git.dirtySrcFiles} uncommitted src/ files` : ''}`;
	out.push(`revisit: ${cfg.revisitCommand} (${built})`);
	out.push(`got loop: ${cfg.gotCommand}`);
	out.push(
		`concurrency ${cfg.concurrency} and --per-host ${cfg.concurrency}: one origin, so per-host = concurrency keeps ${cfg.concurrency} requests in ` +
			`flight, like the got loop's ${cfg.concurrency} workers`,
	);
	if (cfg.candidate) out.push(`candidate: ${cfg.candidate}/bin/revisit.js, same flags`);
	if (cfg.nodeOptions.length > 0) out.push(`revisit children ran with extra node options: ${cfg.nodeOptions.join(' ')}`);
	if (cfg.traceMemory) out.push('--trace-memory: the memory runs forced a full GC every 2 s, so their peak RSS and timing are not representative');
	const verdicts = [];
	let allValid = true;

	if (throughput.length > 0) {
		const pick = (tool, pass, key) => median(throughput.filter((r) => r.tool === tool && r.pass === pass && r.valid).map((r) => r[key]));
		const runs = (tool, pass) =>
			throughput
				.filter((r) => r.tool === tool && r.pass === pass)
				.map((r) => `${fmt(r.urlsPerSec)}${r.valid ? '' : '!'}`)
				.join(' / ');
		allValid &&= throughput.every((r) => r.valid);
		out.push('');
		out.push(`Throughput: ${fmt(cfg.pages)} URLs per pass, wall clock from spawn to exit, median of ${cfg.reps} repetitions (order rotated)`);
		out.push(
			`startup with empty input, included in every figure: ${Object.entries(startup)
				.map(([tool, ms]) => `${tool} ${fmt(ms)} ms`)
				.join(', ')}`,
		);
		out.push('');
		out.push('| pass | client | URLs/s (median) | vs got loop | client CPU µs/URL | peak RSS | each run, URLs/s |');
		out.push('|---|---|---:|---:|---:|---:|---|');
		for (const pass of [1, 2]) {
			const label = pass === 1 ? 'first sweep (all 200, new)' : 'second sweep (all 304)';
			const got = pick('got', pass, 'urlsPerSec');
			for (const tool of [...REVISIT_TOOLS, 'got']) {
				const rate = pick(tool, pass, 'urlsPerSec');
				out.push(
					`| ${label} | ${tool === 'got' ? 'got loop' : tool} | ${fmt(rate)} | ${tool === 'got' ? '1.00x' : `${fmt(rate / got, 2)}x`} | ` +
						`${fmt(pick(tool, pass, 'cpuUsPerUrl'))} | ${mib(pick(tool, pass, 'peakRssKb'))} MiB | ${runs(tool, pass)} |`,
				);
			}
		}
		for (const tool of REVISIT_TOOLS) {
			const ratio = pick(tool, 2, 'urlsPerSec') / pick('got', 2, 'urlsPerSec');
			verdicts.push(`${ratio >= RATIO_TARGET ? 'PASS' : 'FAIL'}: ${tool} second sweep = ${fmt(ratio, 2)}x the got loop's rate (target >= ${RATIO_TARGET}x)`);
		}
	}

	if (memory.length > 0) {
		allValid &&= memory.every((r) => r.valid);
		out.push('');
		out.push(
			`Memory and streaming: ${fmt(cfg.lines)} lines piped into revisit's stdin (${fmt(cfg.distinct)} distinct URLs x ` +
				`${fmt(cfg.lines / cfg.distinct, 1)}, shuffled, seed 0x${cfg.seed.toString(16)}), one store`,
		);
		out.push('');
		out.push('| run | wall | distinct URLs/s | lines/s | peak RSS (VmHWM) | CPU | first stdout byte | stdin fully written |');
		out.push('|---|---:|---:|---:|---:|---:|---:|---:|');
		for (const r of memory) {
			out.push(
				`| ${r.pass === 1 ? 'first sweep (all new)' : 'second sweep (all 304)'}${r.valid ? '' : ' (INVALID)'} | ${fmt(r.wallMs / 1000, 1)} s | ` +
					`${fmt(r.urlsPerSec)} | ${fmt(r.linesPerSec)} | ` +
					(`${mib(r.peakRssKb)} MiB | ${fmt(r.cpuMs / 1000, 1)} s | ` +
						(r.firstStdoutMs === undefined ? 'none (nothing changed)' : `${fmt(r.firstStdoutMs)} ms`) +
						` | ${fmt(r.stdinDoneMs)} ms |`),
			);
		}
		const peak = Math.max(...memory.map((r) => r.peakRssKb));
		verdicts.push(`${peak < RSS_TARGET_KB ? 'PASS' : 'FAIL'}: peak RSS for ${fmt(cfg.lines)} lines = ${mib(peak)} MiB (target < 256 MiB)`);
		const first = memory.find((r) => r.pass === 1);
		if (first) {
			const streams = first.firstStdoutMs !== undefined && first.stdinDoneMs !== undefined && first.firstStdoutMs < first.stdinDoneMs;
			verdicts.push(
				`${streams ? 'PASS' : 'FAIL'}: verdicts stream out while stdin is still being written (first verdict at ${fmt(first.firstStdoutMs)} ms, ` +
					`stdin finished at ${fmt(first.stdinDoneMs)} ms)`,
			);
		}
	}
	out.push('');
	if (!allValid) out.push('WARNING: some runs did not produce the expected responses/output (marked ! or INVALID); they are left out of the medians.');
	out.push(...verdicts);
	out.push(`total bench time ${fmt(totalMs / 1000)} s`);
	process.stdout.write(`${out.join('\n')}\n`);
	process.exitCode = verdicts.some((v) => v.startsWith('FAIL')) || !allValid ? 1 : 0;
}
