// The all-304 second sweep of this working tree against a named commit (and the plain got
// loop), side by side and interleaved, on one local origin:
//
//   node bench/compare.js --against 71aa77a[,3e048d2,...] [--rounds 3] [--pages 20000] [--concurrency 24]
//        [--per-host N] [--origin nginx|node] [--no-got] [--got-lean] [--args="--audit 0"] [--no-build] [--keep]
//
// (--against also takes a directory holding a build: bin/revisit.js and dist/.)
// - "tree": this working tree, built first (`npm run build`, unless --no-build) and copied
//   (bin/, dist/, package.json) to bench/.tmp/, so a rebuild while the bench runs can't mix builds.
// - "<commit>": checked out with `git worktree add --detach` into bench/.tmp/against-<commit>
//   (git-ignored), node_modules symlinked from this tree, built with `npm run build`. The
//   worktree is removed at the end unless --keep (then a later run reuses its build).
// - "got": bench/got-loop.js, the floor (If-None-Match from the first pass's ETags), unless --no-got.
// - "got-lean" (--got-lean): the same loop with revisit's workaround for got 14's per-request
//   options literal (src/net/http/native-options.ts), to tell that gain from the rest.
//
// The origin is nginx (gzip on, as a static site is usually served: 200s are gzipped, their
// ETags weak; Last-Modified from the files) with --pages static ~4 KB pages, or with
// --origin node bench/origin.js (no gzip). Each round, in rotated order, every contender
// runs an unmeasured first sweep into a fresh store (or ETag file), then the measured
// second sweep, in which every URL answers 304. revisit runs with its default flags plus
// --concurrency C --per-host C (and --args). Wall clock from spawn to exit; the table
// shows each round, the median, and each one's ratio to the got loop and to the commit
// measured in the same round. Only 127.0.0.1 is contacted.
import { spawn, spawnSync, fork } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { closeChild } from './lib/child.js';
import { startNginxStatic } from './lib/nginx-static.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOOK = pathToFileURL(path.join(HERE, 'lib', 'peak-rss.js')).href;
const ROOT = path.resolve(HERE, '..');
const SCRATCH = path.join(HERE, '.tmp');

const { values: flags } = parseArgs({
	options: {
		against: { type: 'string' },
		rounds: { type: 'string', default: '3' },
		pages: { type: 'string', default: '20000' },
		concurrency: { type: 'string', default: '24' },
		'per-host': { type: 'string' },
		origin: { type: 'string', default: 'nginx' },
		args: { type: 'string', default: '' },
		'no-got': { type: 'boolean', default: false },
		'got-lean': { type: 'boolean', default: false },
		'no-build': { type: 'boolean', default: false },
		keep: { type: 'boolean', default: false },
	},
});
const rounds = Number(flags.rounds);
const pages = Number(flags.pages);
const C = String(Number(flags.concurrency));
const perHost = String(Number(flags['per-host'] ?? C));
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(pages) || pages < 1) throw new TypeError('bad --rounds or --pages');
if (!['nginx', 'node'].includes(flags.origin)) throw new TypeError('--origin is nginx or node');
const extra = flags.args.split(/\s+/).filter(Boolean);
const log = (text) => process.stderr.write(`[compare] ${text}\n`);
const run = (command, args, cwd) => {
	const done = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
	if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${done.stderr || done.stdout}`);
	return done.stdout.trim();
};

fs.mkdirSync(SCRATCH, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-compare-'));
const cleanups = [() => fs.rmSync(tmp, { recursive: true, force: true })];

// ---------------------------------------------------------------------------------------
// The builds

/** This tree, built, then copied so that the measured files can't change under the bench. */
function treeBuild() {
	if (!flags['no-build']) {
		log('building the working tree (npm run build)');
		run('npm', ['run', 'build'], ROOT);
	}
	const dir = path.join(SCRATCH, `tree-${process.pid}`);
	for (const part of ['bin', 'dist']) fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
	fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
	cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
	const commit = run('git', ['rev-parse', '--short', 'HEAD'], ROOT);
	const dirty = run('git', ['status', '--porcelain', '--', 'src'], ROOT).split('\n').filter(Boolean).length;
	return { name: 'tree', label: `working tree (HEAD ${commit}${dirty ? `, ${dirty} uncommitted src/ files` : ''})`, bin: path.join(dir, 'bin', 'revisit.js') };
}

/** The named commit in its own worktree under bench/.tmp, built there. */
function commitBuild(ref) {
	if (fs.existsSync(path.join(ref, 'bin', 'revisit.js')))
		return { name: path.basename(path.resolve(ref)), label: `build in ${path.resolve(ref)}`, bin: path.join(path.resolve(ref), 'bin', 'revisit.js') };
	const sha = run('git', ['rev-parse', '--short', `${ref}^{commit}`], ROOT);
	const dir = path.join(SCRATCH, `against-${sha}`);
	const bin = path.join(dir, 'bin', 'revisit.js');
	if (!fs.existsSync(path.join(dir, 'dist', 'cli.js'))) {
		if (fs.existsSync(dir)) {
			spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT });
			fs.rmSync(dir, { recursive: true, force: true });
		}
		log(`git worktree add ${path.relative(ROOT, dir)} ${sha}`);
		run('git', ['worktree', 'add', '--detach', dir, sha], ROOT);
		fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
		log(`building ${sha} (npm run build)`);
		run('npm', ['run', 'build'], dir);
	} else {
		log(`reusing the build in ${path.relative(ROOT, dir)}`);
	}
	if (!flags.keep) cleanups.push(() => spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT }));
	return { name: sha, label: `commit ${sha}`, bin };
}

// ---------------------------------------------------------------------------------------
// The origin

async function startNodeOrigin() {
	const child = fork(path.join(HERE, 'origin.js'), [String(pages)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const [ready] = await once(child, 'message');
	return { base: `http://127.0.0.1:${ready.port}`, describe: `bench/origin.js (node:http, no gzip), ${pages} pages of ~4 KB`, close: () => closeChild(child) };
}

// ---------------------------------------------------------------------------------------
// Runs

let runs = 0;
function timed(command, args, stdinFile) {
	const fd = fs.openSync(stdinFile, 'r');
	const stats = path.join(tmp, `stats-${++runs}.json`);
	const started = performance.now();
	const child = spawn(process.execPath, ['--import', HOOK, command, ...args], {
		cwd: ROOT,
		stdio: [fd, 'pipe', 'pipe'],
		env: { ...process.env, REVISIT_BENCH_STATS: stats },
	});
	fs.closeSync(fd);
	let stdout = 0;
	let stderr = '';
	child.stdout.on('data', (chunk) => (stdout += chunk.length));
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const killer = setTimeout(() => child.kill('SIGKILL'), 300_000);
	return new Promise((resolve) =>
		child.on('close', (code) => {
			clearTimeout(killer);
			let cpuMs = NaN;
			try {
				const own = JSON.parse(fs.readFileSync(stats, 'utf8'));
				cpuMs = own.cpuUserMs + own.cpuSystemMs;
			} catch {
				// killed before its exit hook ran
			}
			resolve({ ms: performance.now() - started, cpuMs, code, stdout, stderr });
		}),
	);
}

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

try {
	const contenders = [treeBuild()];
	// Several builds may be named, comma-separated: each is measured alongside.
	for (const ref of (flags.against ?? '').split(',').filter(Boolean)) contenders.push(commitBuild(ref));
	if (!flags['no-got']) contenders.push({ name: 'got', label: 'bench/got-loop.js (got 14, one keep-alive agent)', got: true });
	if (flags['got-lean'])
		contenders.push({ name: 'got-lean', label: "bench/got-loop.js --lean (the same, with revisit's native-options hook)", got: true, lean: true });
	const origin = flags.origin === 'nginx' ? await startNginxStatic(pages, tmp) : await startNodeOrigin();
	cleanups.unshift(() => origin.close());
	const urls = path.join(tmp, 'urls.txt');
	fs.writeFileSync(urls, Array.from({ length: pages }, (_, n) => `${origin.base}/p/${n}\n`).join(''));
	const sweep = (store) => ['sweep', '--store', store, '-q', '--concurrency', C, '--per-host', perHost, ...extra];
	const argsOf = (contender, round) =>
		contender.got
			? [
					path.join(HERE, 'got-loop.js'),
					['--concurrency', C, '--etags', path.join(tmp, `etags-${contender.name}-${round}.json`), ...(contender.lean ? ['--lean'] : [])],
				]
			: [contender.bin, sweep(path.join(tmp, `store-${contender.name}-${round}`))];
	log(`origin: ${origin.describe}`);
	log(`revisit: node bin/revisit.js ${sweep('<fresh store>').join(' ')} < urls (second sweep measured)`);

	// Warm-up: page cache, nginx's open files; not measured.
	for (const contender of contenders) {
		const [command, args] = argsOf(contender, 'warm');
		await timed(command, args, urls);
	}

	const times = Object.fromEntries(contenders.map((c) => [c.name, []]));
	const cpu = Object.fromEntries(contenders.map((c) => [c.name, []]));
	for (let round = 1; round <= rounds; round++) {
		const order = contenders.map((_, i) => contenders[(i + round - 1) % contenders.length]);
		for (const contender of order) {
			const [command, args] = argsOf(contender, round);
			const first = await timed(command, args, urls);
			if (first.code !== 0 || first.stdout === 0)
				throw new Error(`${contender.name} first sweep: exit ${first.code}, ${first.stdout} stdout bytes: ${first.stderr.slice(0, 2000)}`);
			const second = await timed(command, args, urls);
			if (second.code !== 0 || second.stdout !== 0)
				throw new Error(`${contender.name} second sweep: exit ${second.code}, ${second.stdout} stdout bytes (expected none): ${second.stderr.slice(0, 2000)}`);
			times[contender.name].push(second.ms);
			cpu[contender.name].push(second.cpuMs);
			log(
				`round ${round} ${contender.name.padEnd(8)} ${second.ms.toFixed(0).padStart(6)} ms  ${((pages / second.ms) * 1000).toFixed(0)} URLs/s  CPU ` +
					`${second.cpuMs.toFixed(0)} ms`,
			);
		}
	}

	const out = [];
	out.push(
		`bench/compare.js — ${new Date().toISOString()}, ${os.availableParallelism()} CPUs, node ${process.version}, load ${os
			.loadavg()
			.map((n) => n.toFixed(2))
			.join(' ')}`,
	);
	out.push(`origin: ${origin.describe}`);
	out.push(`revisit: node bin/revisit.js ${sweep('<fresh store>').join(' ')} < urls; second sweep (all 304) timed, spawn to exit`);
	for (const c of contenders) out.push(`${c.name}: ${c.label}`);
	out.push('');
	const others = contenders.filter((c) => c !== contenders[0]);
	out.push(`| round | ${contenders.map((c) => `${c.name} ms`).join(' | ')} | ${others.map((c) => `tree / ${c.name} (speed)`).join(' | ')} |`);
	out.push(`|---|${contenders.map(() => '---:').join('|')}|${others.map(() => '---:').join('|')}|`);
	const ratio = (other, i) => (i === undefined ? median(times[other.name]) / median(times.tree) : times[other.name][i] / times.tree[i]);
	for (let i = 0; i < rounds; i++) {
		out.push(
			`| ${i + 1} | ${contenders.map((c) => times[c.name][i].toFixed(0)).join(' | ')} | ${others.map((c) => `${ratio(c, i).toFixed(2)}x`).join(' | ')} |`,
		);
	}
	out.push(
		`| median | ${contenders.map((c) => median(times[c.name]).toFixed(0)).join(' | ')} | ${others.map((c) => `**${ratio(c).toFixed(2)}x**`).join(' | ')} |`,
	);
	out.push('');
	out.push(
		`Client CPU time (user + system) of the same runs, median: ` +
			contenders.map((c) => `${c.name} ${median(cpu[c.name]).toFixed(0)} ms (${((median(cpu[c.name]) * 1000) / pages).toFixed(0)} µs/URL)`).join(', ') +
			`.`,
	);
	out.push('');
	out.push(
		"tree / X (speed) = X's time / the tree's time: above 1.00x the tree is faster. Against the got loop that is the \"fraction of the got loop's rate\".",
	);
	process.stdout.write(`${out.join('\n')}\n`);
} finally {
	for (const cleanup of cleanups) {
		try {
			await cleanup();
		} catch (error) {
			log(`cleanup: ${error.message}`);
		}
	}
}
