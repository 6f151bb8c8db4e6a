// Does a client reading `revisit watch --listen`'s report page slow the watch's checks?
// From the repository root, after `npm run build`:
//
//   node bench/watch-listen.js                       # seeds 1 and 2, six 5 s windows each
//   node bench/watch-listen.js --windows 10 --seeds 1,2,3
//   node bench/watch-listen.js --cli /tmp/old/bin/revisit.js  # another build (before and after)
//
// Per seed:
// 1. The origin (bench/lib/changing-origin.js, forked): --urls pages on 127.0.0.1 whose
//    every answer differs from the last (a word moved, a new ETag), so every check is a
//    change with a word diff: the costliest check, and the one that fills the report.
// 2. The store: LevelDB, written through the library (dist/store/level/store.js) with --runs
//    run rows of --changes changed URLs each (their details with a short word diff), the
//    report a watch that has seen its URLs change for a few hours shows: 4 × 5,000 changes
//    by default, what 10,000 URLs changing twice leave (a run keeps 5,000).
// 3. One watch on that store: `revisit watch --store DIR -q --rate 1000000/s --listen
//    127.0.0.1:0`, the URLs on stdin (all new: the rate does not bind, the pipeline does),
//    every other flag at its default. After --warmup s come --windows windows of --seconds
//    each, alternating: alone, then with a client in this process fetching `/` in a tight
//    loop (seed 2 starts with the client). One watch with alternating windows pairs each
//    window with its neighbours under the same load, which on a shared machine drifts more
//    than the effect measured. The client: one request at a time on a kept-alive
//    connection, gzip accepted as a browser does, the body read (node:http, which costs
//    this process less CPU than fetch: on a machine with few cores the client's own CPU
//    is taken from the watch too, and that is not the server's doing). The checks of a
//    window are the origin's page requests over it.
//
// The ratio is checks per window with the client over checks per window alone (summed
// over the windows of each kind); target >= 0.9. Exit status 1 when the watch failed or
// the target is missed.
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { closeChild } from './lib/child.js';
import { countFlag } from './lib/count-flag.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HOUR = 3_600_000;
const log = (text) => console.error(`[watch-listen ${new Date().toISOString().slice(11, 19)}] ${text}`);

const { values: flags } = parseArgs({
	options: {
		// Enough that none is checked twice in the run (a new URL is checked again after 1h).
		urls: { type: 'string', default: '30000' },
		runs: { type: 'string', default: '4' },
		changes: { type: 'string', default: '5000' },
		seconds: { type: 'string', default: '5' },
		windows: { type: 'string', default: '6' },
		warmup: { type: 'string', default: '5' },
		seeds: { type: 'string', default: '1,2' },
		// Another build's bin/revisit.js (an older tree, for a before-and-after).
		cli: { type: 'string' },
	},
});
const CLI = path.resolve(flags.cli ?? path.join(ROOT, 'bin/revisit.js'));
const int = (name) => countFlag(flags, name);
const URLS = int('urls');
const RUNS = int('runs');
const CHANGES = int('changes');
const SECONDS = int('seconds');
const WARMUP = int('warmup');
const WINDOWS = int('windows');
const SEEDS = flags.seeds.split(',').map(Number);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-watch-listen-'));
const rows = [];
let failed = false;
try {
	for (const [i, seed] of SEEDS.entries()) {
		const origin = fork(path.join(ROOT, 'bench/lib/changing-origin.js'), [String(seed)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		try {
			const [{ port }] = await once(origin, 'message');
			const urls = Array.from({ length: URLS }, (_, n) => `http://127.0.0.1:${port}/p/${n}`);
			const seeded = path.join(dir, `seed-${seed}`);
			await seedStore(seeded, urls, seed);
			const row = { seed, ...(await watchCase(origin, seeded, urls, i % 2 === 1)) };
			row.ratio = row.client.checks / row.client.windows / (row.alone.checks / row.alone.windows);
			log(
				`seed ${seed}: ${row.alone.checks} checks in ${row.alone.windows} windows alone, ${row.client.checks} in ${row.client.windows} with the client ` +
					`(${row.ratio.toFixed(2)}x), ${row.fetches} pages fetched`,
			);
			if (!(row.ratio >= 0.9) || row.status !== 0) failed = true;
			rows.push(row);
		} finally {
			await closeChild(origin);
		}
	}
} finally {
	fs.rmSync(dir, { recursive: true, force: true });
}

const out = [
	`bench/watch-listen.js — ${new Date().toISOString()}, ${os.availableParallelism()} CPUs, node ${process.version}, load ${os
		.loadavg()
		.map((n) => n.toFixed(2))
		.join(' ')}`,
	`cli: ${path.relative(ROOT, CLI)}; store: ${RUNS} runs of ${CHANGES.toLocaleString('en')} changed URLs; watch: ` +
		`node ${path.relative(ROOT, CLI)} watch --store DIR -q --rate 1000000/s --listen 127.0.0.1:0 < ${URLS.toLocaleString('en')} URLs; ` +
		`${WINDOWS} windows of ${SECONDS} s after ${WARMUP} s`,
	'',
	'| seed | checks per window alone | with a client fetching / | with / alone | pages fetched (per s) ' +
		'| page size | page builds (revisit_report_builds_total) | checks per window, in order | exit |',
	'|---|---:|---:|---:|---:|---:|---:|---|---|',
	...rows.map(
		(r) =>
			`| ${r.seed} | ${(r.alone.checks / r.alone.windows).toFixed(0)} | ${(r.client.checks / r.client.windows).toFixed(0)} | ${r.ratio.toFixed(2)}x | ` +
			`${r.fetches.toLocaleString('en')} (${(r.fetches / (r.client.windows * SECONDS)).toFixed(1)}) | ${(r.pageBytes / 1024).toFixed(0)} KiB | ` +
			`${Number.isNaN(r.builds) ? '-' : r.builds} | ${r.order.join(' ')} | ${r.status} |`,
	),
];
process.stdout.write(`${out.join('\n')}\n`);
process.exitCode = failed ? 1 : 0;

// ---------------------------------------------------------------------------------------

/** Writes the run rows and details the report page shows, through the library. */
async function seedStore(storeDir, urls, seed) {
	const { LevelStore } = await import(pathToFileURL(path.join(ROOT, 'dist/store/level/store.js')).href);
	const { runKey } = await import(pathToFileURL(path.join(ROOT, 'dist/store/model/run-key.js')).href);
	const store = await LevelStore.open(storeDir);
	const origin = new URL(urls[0]).origin;
	const start = Date.now() - (RUNS + 1) * HOUR;
	for (let r = 0; r < RUNS; r++) {
		const startedAt = start + r * HOUR;
		const changes = Array.from({ length: CHANGES }, (_, i) => ({
			url: urls[(r * CHANGES + i * (seed + 1)) % urls.length],
			origin,
			reason: 'new-body',
			changed: true,
			before: { status: 200, etag: `"${i}-${r}"`, hash: 'a'.repeat(16) },
			after: { status: 200, etag: `"${i}-${r + 1}"`, hash: 'b'.repeat(16) },
			bytes: 420,
			text: 'diff',
			diff: [
				[
					[0, 'the words around '],
					[-1, `v${r}`],
					[1, `v${r + 1}`],
					[0, ' and after them'],
				],
			],
		}));
		const run = {
			v: 1,
			startedAt,
			endedAt: startedAt + HOUR - 1,
			urls: urls.length,
			changed: CHANGES,
			notModified: 0,
			sameHash: 0,
			errors: 0,
			bytes: urls.length * 420,
			fullBytes: urls.length * 420,
			notDue: 0,
			blockedHosts: [],
			hosts: { [origin]: { urls: urls.length, changed: CHANGES, conditional: urls.length, notModified: 0 } },
		};
		await store.batch([
			{ type: 'putRun', key: runKey(startedAt), value: run },
			{ type: 'putRunDetail', key: runKey(startedAt), value: { v: 1, startedAt, changes, errors: [], errorCounts: {}, dropped: { changes: 0, errors: 0 } } },
		]);
	}
	await store.close();
}

/** GET `url` as a browser would ask (gzip accepted), on a kept-alive connection: the bytes received. */
function getPage(url, agent) {
	return new Promise((resolve, reject) => {
		http
			.get(url, { agent, headers: { 'accept-encoding': 'gzip' } }, (response) => {
				let bytes = 0;
				response.on('data', (chunk) => (bytes += chunk.length));
				response.on('end', () => (response.statusCode === 200 ? resolve(bytes) : reject(new Error(`GET ${url}: ${response.statusCode}`))));
			})
			.on('error', reject);
	});
}

/** The origin's page requests so far. */
function originCount(origin) {
	return new Promise((resolve) => {
		const answer = (message) => {
			if (message.type !== 'count') return;
			origin.off('message', answer);
			resolve(message.pages);
		};
		origin.on('message', answer);
		origin.send({ type: 'count' });
	});
}

/** One watch on `storeDir`: the checks in its windows alone and with the client, and what the client got. */
async function watchCase(origin, storeDir, urls, clientFirst) {
	const watch = spawn(process.execPath, [CLI, 'watch', '--store', storeDir, '-q', '--rate', '1000000/s', '--listen', '127.0.0.1:0'], {
		stdio: ['pipe', 'ignore', 'pipe'],
	});
	watch.stdin.end(`${urls.join('\n')}\n`);
	let stderr = '';
	const base = await new Promise((resolve, reject) => {
		watch.stderr.on('data', (chunk) => {
			stderr += chunk;
			const at = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
			if (at) resolve(at[1]);
		});
		watch.on('close', () => reject(new Error(`the watch ended before it listened: ${stderr}`)));
	});
	const exited = once(watch, 'close');
	await new Promise((resolve) => setTimeout(resolve, WARMUP * 1000));
	const result = { alone: { checks: 0, windows: 0 }, client: { checks: 0, windows: 0 }, fetches: 0, pageBytes: 0, order: [] };
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	for (let w = 0; w < WINDOWS; w++) {
		const client = w % 2 === (clientFirst ? 0 : 1);
		const before = await originCount(origin);
		// The count at the window's end, whether or not a page is being fetched then.
		let over = false;
		const after = new Promise((resolve) =>
			setTimeout(() => {
				over = true;
				resolve(originCount(origin));
			}, SECONDS * 1000),
		);
		while (client && !over) {
			result.pageBytes = await getPage(base, agent);
			result.fetches++;
		}
		const checks = (await after) - before;
		const kind = client ? result.client : result.alone;
		kind.checks += checks;
		kind.windows++;
		result.order.push(`${client ? 'C' : 'A'}${checks}`);
	}
	agent.destroy();
	result.builds = Number(/^revisit_report_builds_total (\d+)/m.exec(await (await fetch(`${base}metrics`)).text())?.[1] ?? Number.NaN);
	watch.kill('SIGTERM');
	const [status] = await exited;
	return { ...result, status };
}
