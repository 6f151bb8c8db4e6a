// File descriptors of a sweep over many hosts (issue 10): `npm run build && node bench/fds.js`.
//
// 2,000 origins on 127.0.0.1 (test/fixtures/many-origins.js: one server per port, all in
// their own child process, so their listening sockets count against that process's limit),
// 5 pages each, strong ETags. The URL list goes round robin over the origins (every
// origin's page 0, then every page 1, ...): the order in which an origin's connection is
// reused least. For each build, and for each descriptor limit (none, then --limit under
// `prlimit --nofile=N`), a fresh store and two sweeps:
//
//   node bin/revisit.js sweep --store <fresh tmp> --ndjson --all -q < urls
//   (the second sweep: the same command on the same store; every URL answers 304)
//
// The revisit process's open descriptors are counted every --sample-ms (default 2) from
// /proc/<pid>/fd, and the table reports the largest count seen (a sample can miss a peak
// shorter than the interval, never invent one), with exit status, verdicts, errors by
// code, connections the origins accepted and the most they had open at once.
//
// Options: --origins N (2000), --pages N (5), --limit N (1024; 0 = unlimited runs only),
// --baseline DIR (another build, a directory with bin/revisit.js and dist/, measured
// alongside as "baseline": e.g. the commit before the fix, built and copied there),
// --build DIR (measure that build as "revisit" instead of a snapshot of this one),
// --sample-ms N, --keep-tmp, --json FILE (raw results; default bench/.tmp/fds-*.json).
// Linux only (/proc, prlimit). Only 127.0.0.1 is contacted. Every child has a hard timeout.
import { closeChild } from './lib/child.js';
import { fork, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const ORIGINS_SCRIPT = path.join(ROOT, 'test', 'fixtures', 'many-origins.js');
const SCRATCH = path.join(HERE, '.tmp'); // git-ignored
const SWEEP_TIMEOUT_MS = 600_000;

const { values: flags } = parseArgs({
	options: {
		origins: { type: 'string', default: '2000' },
		pages: { type: 'string', default: '5' },
		limit: { type: 'string', default: '1024' },
		baseline: { type: 'string' },
		build: { type: 'string' },
		'sample-ms': { type: 'string', default: '2' },
		'keep-tmp': { type: 'boolean', default: false },
		json: { type: 'string' },
	},
});
const int = (name, min) => {
	const number = Number(flags[name]);
	if (!Number.isInteger(number) || number < min) throw new TypeError(`--${name} must be an integer >= ${min} (got ${flags[name]})`);
	return number;
};
const config = {
	origins: int('origins', 1),
	pages: int('pages', 1),
	limit: int('limit', 0),
	sampleMs: int('sample-ms', 1),
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-fds-'));
const started = performance.now();
const log = (text) => process.stderr.write(`[fds ${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${text}\n`);
const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', timeout: 10_000 }).stdout?.trim() ?? '';

/**
 * Copies a build's bin/ and dist/ (and package.json) under bench/.tmp/, so a rebuild while
 * the bench runs can't mix two builds, and so the copy resolves node_modules from here.
 */
function snapshot(from, name) {
	const dir = path.join(SCRATCH, `${name}-${process.pid}`);
	fs.rmSync(dir, { recursive: true, force: true });
	for (const part of ['bin', 'dist']) fs.cpSync(path.join(from, part), path.join(dir, part), { recursive: true });
	if (fs.existsSync(path.join(from, 'package.json'))) fs.copyFileSync(path.join(from, 'package.json'), path.join(dir, 'package.json'));
	return dir;
}
for (const dir of [flags.build, flags.baseline]) {
	if (dir && !fs.existsSync(path.join(dir, 'bin', 'revisit.js'))) throw new TypeError(`no bin/revisit.js in ${dir}`);
}
const builds = { revisit: snapshot(flags.build ? path.resolve(flags.build) : ROOT, 'fds-build') };
if (flags.baseline) builds.baseline = snapshot(path.resolve(flags.baseline), 'fds-baseline');
config.revisit = flags.build
	? `build ${path.resolve(flags.build)}`
	: `commit ${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src') ? ' (with uncommitted src/ changes)' : ''}`;
config.baseline = flags.baseline ? path.resolve(flags.baseline) : undefined;

// ---------------------------------------------------------------------------------------
// Origins

async function startOrigins() {
	const child = fork(ORIGINS_SCRIPT, [String(config.origins), String(config.pages)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const [ready] = await Promise.race([once(child, 'message'), once(child, 'exit').then(() => Promise.reject(new Error('origins exited before listening')))]);
	const ask = async (type) => {
		const reply = once(child, 'message');
		child.send({ type });
		return (await reply)[0];
	};
	return {
		ports: ready.ports,
		stats: () => ask('stats'),
		resetPeak: () => ask('reset-peak'),
		close: () => closeChild(child),
	};
}

// ---------------------------------------------------------------------------------------
// One sweep

const countFds = (pid) => {
	try {
		return fs.readdirSync(`/proc/${pid}/fd`).length;
	} catch {
		return 0; // exited between samples
	}
};

/** Runs one sweep (under prlimit when `limit` > 0), sampling its descriptors; returns the figures. */
async function sweep(bin, store, urlsFile, limit) {
	const args = [bin, 'sweep', '--store', store, '--ndjson', '--all', '-q'];
	const [command, argv] = limit > 0 ? ['prlimit', [`--nofile=${limit}`, process.execPath, ...args]] : [process.execPath, args];
	const stdin = fs.openSync(urlsFile, 'r');
	const begun = performance.now();
	const child = spawn(command, argv, { cwd: ROOT, stdio: [stdin, 'pipe', 'pipe'] });
	fs.closeSync(stdin);
	let peakFds = 0;
	// prlimit execs the command: the pid is revisit's own.
	const sampler = setInterval(() => (peakFds = Math.max(peakFds, countFds(child.pid))), config.sampleMs);
	const killer = setTimeout(() => child.kill('SIGKILL'), SWEEP_TIMEOUT_MS);
	const reasons = {};
	const errors = {};
	let verdicts = 0;
	let rest = '';
	child.stdout.on('data', (chunk) => {
		const lines = (rest + chunk).split('\n');
		rest = lines.pop();
		for (const line of lines) {
			if (line === '') continue;
			const verdict = JSON.parse(line);
			verdicts++;
			reasons[verdict.reason] = (reasons[verdict.reason] ?? 0) + 1;
			if (verdict.error) errors[verdict.error.code] = (errors[verdict.error.code] ?? 0) + 1;
		}
	});
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4096)));
	const [exitCode, signal] = await once(child, 'close');
	clearInterval(sampler);
	clearTimeout(killer);
	return {
		exit: exitCode ?? signal,
		wallMs: performance.now() - begun,
		peakFds,
		verdicts,
		reasons,
		errors,
		stderrTail: stderr.trim().split('\n').slice(-2).join('\n'),
	};
}

// ---------------------------------------------------------------------------------------
// Main

const origins = await startOrigins();
const results = {
	config,
	machine: {
		nproc: os.availableParallelism?.() ?? os.cpus().length,
		cpu: os.cpus()[0]?.model ?? 'unknown',
		node: process.version,
		load: os
			.loadavg()
			.map((n) => n.toFixed(2))
			.join(' '),
	},
	startedAt: new Date().toISOString(),
	runs: [],
};
try {
	const urls = [];
	for (let page = 0; page < config.pages; page++) for (const port of origins.ports) urls.push(`http://127.0.0.1:${port}/p/${page}\n`);
	const urlsFile = path.join(tmp, 'urls.txt');
	fs.writeFileSync(urlsFile, urls.join(''));
	const emptyFile = path.join(tmp, 'empty.txt');
	fs.writeFileSync(emptyFile, '');
	log(`${config.origins} origins x ${config.pages} pages = ${urls.length} URLs, round robin; tmp ${tmp}; load ${results.machine.load}`);

	for (const [name, dir] of Object.entries(builds)) {
		const bin = path.join(dir, 'bin', 'revisit.js');
		const idle = await sweep(bin, path.join(tmp, `store-${name}-empty`), emptyFile, 0);
		results.runs.push({ build: name, limit: 0, sweep: 'empty input', ...idle });
		for (const limit of config.limit > 0 ? [0, config.limit] : [0]) {
			const store = path.join(tmp, `store-${name}-${limit}`);
			for (const pass of ['first', 'second']) {
				await origins.resetPeak();
				const before = await origins.stats();
				const run = await sweep(bin, store, urlsFile, limit);
				const after = await origins.stats();
				const row = { build: name, limit, sweep: pass, ...run, connections: after.connections - before.connections, serverPeakOpen: after.peakOpen };
				results.runs.push(row);
				log(
					`${name}, limit ${limit || 'none'}, ${pass} sweep: exit ${row.exit}, peak ${row.peakFds} fds, ${row.verdicts} verdicts ` +
						`${JSON.stringify(row.reasons)}, ${(row.wallMs / 1000).toFixed(1)} s`,
				);
			}
		}
	}
} finally {
	await origins.close();
	if (flags['keep-tmp']) log(`kept ${tmp}`);
	else fs.rmSync(tmp, { recursive: true, force: true });
	for (const dir of Object.values(builds)) fs.rmSync(dir, { recursive: true, force: true });
}

const jsonFile = flags.json ?? path.join(SCRATCH, `fds-${results.startedAt.replaceAll(':', '-')}.json`);
fs.mkdirSync(path.dirname(jsonFile), { recursive: true });
fs.writeFileSync(jsonFile, `${JSON.stringify(results, null, '\t')}\n`);

const fmt = (n) => n.toLocaleString('en-US');
const out = [
	'',
	`revisit file descriptors — ${results.startedAt}`,
	`machine: ${results.machine.nproc} CPUs (${results.machine.cpu}), node ${results.machine.node}; load average at start ${results.machine.load}`,
	`revisit: ${config.revisit}${config.baseline ? `; baseline: ${config.baseline}` : ''}`,
	`${fmt(config.origins)} origins x ${config.pages} pages, round robin; descriptors sampled every ${config.sampleMs} ms from /proc/<pid>/fd`,
	'',
	'| build | fd limit | sweep | exit | verdicts | errors | peak fds | connections opened | most open at the origins | wall |',
	'|---|---:|---|---:|---|---|---:|---:|---:|---:|',
];
for (const r of results.runs) {
	const verdicts =
		Object.entries(r.reasons)
			.map(([reason, n]) => `${fmt(n)} ${reason}`)
			.join(', ') || 'none';
	const errors =
		Object.entries(r.errors)
			.map(([code, n]) => `${fmt(n)} ${code}`)
			.join(', ') || '0';
	const server = r.connections === undefined ? ['', ''] : [fmt(r.connections), fmt(r.serverPeakOpen)];
	out.push(
		`| ${r.build} | ${r.limit || 'none'} | ${r.sweep} | ${r.exit} | ${verdicts} | ${errors} | ${fmt(r.peakFds)} | ${server[0]} | ${server[1]} | ` +
			`${(r.wallMs / 1000).toFixed(1)} s |`,
	);
}
const failed = results.runs.filter((r) => r.exit !== 0 && r.stderrTail);
for (const r of failed)
	out.push('', `${r.build}, limit ${r.limit || 'none'}, ${r.sweep} sweep, last lines of stderr:`, ...r.stderrTail.split('\n').map((line) => `    ${line}`));
out.push('', `raw results: ${path.relative(process.cwd(), jsonFile)}; total ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.stdout.write(`${out.join('\n')}\n`);
process.exitCode = results.runs.some((r) => r.build === 'revisit' && r.exit !== 0) ? 1 : 0;
