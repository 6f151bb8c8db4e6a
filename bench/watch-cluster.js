// A fleet of `revisit watch` processes on a Redis Cluster (issue 39): do the schedule's keys
// and claims spread over the nodes, does the fleet hold --rate, and how fast is the fleet
// against as many got loops side by side? From the repository root, after `npm run build`:
//
//   node bench/watch-cluster.js                           # 3 nodes, 3 watches, 2 rounds
//   node bench/watch-cluster.js --urls 30000 --seconds 15  # a quick try
//
// 1. A 3-node Redis Cluster (redis-server --cluster-enabled yes on free ports of 127.0.0.1,
//    the 16384 slots split evenly, no replicas, no persistence), and nginx (one worker) on
//    --origins ports (bench/lib/nginx-pages.js: 304 to the ETag it gave).
// 2. The store: one real `revisit sweep` of the --urls URLs (spread round robin over the
//    origins) into `redis+cluster://…`, which leaves a record with an ETag for each.
// 3. `speed` (per round): every URL put due a day ago in the store's schedule (through
//    the library, `store.dueQueue(clock).put`), then --watches `revisit watch --store
//    CLUSTER -q --rate 1000000/s --until <warm-up + seconds>s` started together, default
//    flags otherwise: the rate does not bind. Checks/s are nginx's conditional page
//    requests per second in the window after the warm-up (an audit's unconditional GET is
//    not a check). Beside it, in the same round and in alternating order, --watches
//    `bench/got-loop.js --concurrency 24` side by side, each over its share of the URLs
//    with their ETags, counted the same way over the time all of them run.
// 4. `rate`: the same fleet with a binding `--rate` (--rate, default 600/s, under what
//    the fleet reaches); the checks/s nginx saw in the window against it.
// Per node, for each fleet run: the schedule's keys (SCAN MATCH P{due*), the schedule's
// script calls (EVALSHA and EVAL in INFO commandstats, before and after: every claim round,
// done, put) and all commands, and the node's CPU seconds (/proc). CPU seconds of every
// watch and got loop (process.cpuUsage at exit, bench/lib/peak-rss.js), load average.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { countFlag } from './lib/count-flag.js';
import { startNginxPages } from './lib/nginx-pages.js';
import { freePort } from './lib/sweep-bench.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const CLI = path.join(ROOT, 'bin/revisit.js');
const HOOK = pathToFileURL(path.join(HERE, 'lib', 'peak-rss.js')).href;
const DAY = 86_400_000;
const log = (text) => console.error(`[watch-cluster ${new Date().toISOString().slice(11, 19)}] ${text}`);

const { values: flags } = parseArgs({
	options: {
		urls: { type: 'string', default: '90000' },
		origins: { type: 'string', default: '32' },
		nodes: { type: 'string', default: '3' },
		watches: { type: 'string', default: '3' },
		seconds: { type: 'string', default: '25' },
		warmup: { type: 'string', default: '8' },
		rounds: { type: 'string', default: '2' },
		rate: { type: 'string', default: '600' },
		cases: { type: 'string', default: 'speed,rate' },
		// Node flags for the watches (e.g. --node=--cpu-prof --node=--cpu-prof-dir=DIR).
		node: { type: 'string', multiple: true, default: [] },
		// More flags for each watch (e.g. --watch=--per-host=8), after the bench's own.
		watch: { type: 'string', multiple: true, default: [] },
	},
});
const int = (name) => countFlag(flags, name);
const [N, ORIGINS, NODES, WATCHES, SECONDS, WARMUP, ROUNDS, RATE] = ['urls', 'origins', 'nodes', 'watches', 'seconds', 'warmup', 'rounds', 'rate'].map(int);
const CASES = new Set(flags.cases.split(','));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-watch-cluster-'));
const ports = await Promise.all(Array.from({ length: ORIGINS }, () => freePort()));
const urlOf = (n) => `http://127.0.0.1:${ports[n % ORIGINS]}/p/${n}`;
const load = () =>
	os
		.loadavg()
		.map((n) => n.toFixed(1))
		.join(' ');

const cleanups = [];
const out = [];
try {
	const nodes = await startCluster(NODES);
	cleanups.push(() => Promise.all(nodes.map((node) => node.stop())));
	const nginx = await startNginxPages(path.join(dir, 'nginx'), ports);
	cleanups.push(() => nginx.close());
	const store = `redis+cluster://127.0.0.1:${nodes[0].port}?prefix=wc:`;
	const urls = Array.from({ length: N }, (_, i) => urlOf(i));
	log(`filling the store: revisit sweep of ${N} URLs`);
	const fill = spawnSync(process.execPath, [CLI, 'sweep', '--store', store, '-q', '--audit', '0'], {
		input: urls.join('\n'),
		maxBuffer: 1 << 28,
		stdio: ['pipe', 'ignore', 'inherit'],
	});
	if (fill.status !== 0) throw new Error(`the filling sweep exited ${fill.status}`);
	const { RedisStore } = await import(pathToFileURL(path.join(ROOT, 'dist/store/redis/store.js')).href);

	/** Every URL due a day ago, unclaimed. */
	const dueAll = async () => {
		const opened = await RedisStore.open(store);
		const queue = await opened.dueQueue({ at0: Date.now(), wall0: Date.now(), scale: 1 });
		const entries = urls.map((url) => ({ url, origin: url.slice(0, url.indexOf('/p/')), due: Date.now() - DAY, rate: 0.2 }));
		await queue.release(entries.map((entry) => ({ url: entry.url })));
		await queue.put(entries);
		await opened.close();
	};

	/** The fleet of watches at `rate`/s; nginx's checks per second in the window, and per node what the schedule took. */
	const fleetRun = async (rate) => {
		await dueAll();
		const before = await Promise.all(nodes.map((node) => node.counts()));
		const read = nginx.mark();
		const load0 = load();
		const args = ['watch', '--store', store, '-q', '--rate', `${rate}/s`, '--until', `${WARMUP + SECONDS}s`, ...flags.watch];
		const zero = Date.now();
		const cpu0 = nodes.map((node) => node.cpu());
		const nodeCpu = [];
		const timer = setTimeout(() => nodeCpu.push(...nodes.map((node, i) => node.cpu() - cpu0[i])), (WARMUP + SECONDS - 1) * 1000);
		const timer0 = setTimeout(() => nodes.forEach((node, i) => (cpu0[i] = node.cpu())), WARMUP * 1000);
		const runs = await Promise.all(
			Array.from({ length: WATCHES }, (_, i) => measured(process.execPath, [...flags.node, '--import', HOOK, CLI, ...args], `watch${i}`)),
		);
		const after = await Promise.all(nodes.map((node) => node.counts()));
		// Every command the fleet sent or its scripts ran, over the nodes: what a check costs Redis.
		const each = {};
		after.forEach((a, i) => Object.entries(a.each).forEach(([name, n]) => (each[name] = (each[name] ?? 0) + n - (before[i].each[name] ?? 0))));
		log(
			`commands over the nodes: ${Object.entries(each)
				.filter(([, n]) => n > 0)
				.sort((a, b) => b[1] - a[1])
				.map(([name, n]) => `${name} ${n}`)
				.join(', ')}`,
		);
		const keys = await Promise.all(nodes.map((node) => node.scheduleKeys('wc:')));
		clearTimeout(timer);
		clearTimeout(timer0);
		const window = perSecond(await read(), WARMUP, WARMUP + SECONDS - 1, zero);
		const windowCpu = runs.reduce((sum, run) => sum + (run.cpuAt[WARMUP + SECONDS - 1] ?? run.cpuAt.at(-1)) - (run.cpuAt[WARMUP] ?? 0), 0);
		return {
			...window,
			runs,
			args,
			keys,
			windowCpu,
			windowRedisCpu: nodeCpu.reduce((a, b) => a + b, 0),
			nodes: after.map((a, i) => ({ scripts: a.scripts - before[i].scripts, commands: a.commands - before[i].commands, cpu: a.cpu - before[i].cpu })),
			load: `${load0} → ${load()}`,
		};
	};

	const gotRun = async () => {
		const read = nginx.mark();
		const load0 = load();
		const share = Math.floor(N / WATCHES);
		const runs = await Promise.all(
			Array.from({ length: WATCHES }, (_, i) => {
				const mine = urls.slice(i * share, (i + 1) * share);
				const list = path.join(dir, `got-${i}.txt`);
				const etags = path.join(dir, `got-${i}.json`);
				fs.writeFileSync(list, mine.join('\n'));
				fs.writeFileSync(etags, JSON.stringify(mine.map((url) => [url, `"p${url.slice(url.lastIndexOf('/') + 1)}"`])));
				return measured(process.execPath, ['--import', HOOK, path.join(HERE, 'got-loop.js'), '--concurrency', '24', '--etags', etags], `got${i}`, list);
			}),
		);
		const lines = await read();
		// Over the time every loop runs: from the first request to the first loop's end, less a second at each side.
		const zero = Math.min(...runs.map((r) => r.started));
		const seconds = Math.floor(Math.min(...runs.map((r) => r.ms)) / 1000) - 1;
		const windowCpu = runs.reduce((sum, run) => sum + (run.cpuAt[seconds] ?? run.cpuAt.at(-1)) - run.cpuAt[1], 0);
		return { ...perSecond(lines, 1, seconds, zero), runs, windowCpu, load: `${load0} → ${load()}` };
	};

	out.push(`bench/watch-cluster.js — ${new Date().toISOString()}, ${os.availableParallelism()} CPUs, node ${process.version}, load at start ${load()}`);
	out.push(
		`Redis ` +
			spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1] +
			` Cluster of ${NODES} nodes; nginx ${nginx.version}, one worker, ${ORIGINS} ports; ${N.toLocaleString('en')} URLs`,
	);
	out.push('');
	const rows = [];
	if (CASES.has('speed')) {
		for (let round = 1; round <= ROUNDS; round++) {
			const row = { round };
			for (const who of round % 2 ? ['watch', 'got'] : ['got', 'watch']) {
				if (who === 'watch') row.watch = await fleetRun(1_000_000);
				else row.got = await gotRun();
				log(`round ${round} ${who}: ${(row[who].checks).toFixed(0)} checks/s`);
			}
			rows.push(row);
		}
		out.push(`speed: ${WATCHES} × node bin/revisit.js ${rows[0].watch.args.join(' ')}`);
		out.push(`beside it: ${WATCHES} × node bench/got-loop.js --concurrency 24 --etags FILE < a third of the URLs`);
		out.push('');
		out.push(
			'| round | fleet checks/s | got loops /s | fleet / got | CPU ms per check in the window: ' +
				'watches + Redis nodes | got loops | CPU s, whole runs: watches + Redis nodes | got loops | load (fleet; got) |',
		);
		out.push('|---|---:|---:|---:|---:|---:|---:|---:|---|');
		for (const r of rows) {
			const redisCpu = r.watch.nodes.reduce((sum, node) => sum + node.cpu, 0);
			const per = (cpuS, run) => ((cpuS * 1000) / (run.checks * run.series.length)).toFixed(2);
			log(`fleet per second: ${r.watch.series.join(' ')}; got: ${r.got.series.join(' ')}`);
			out.push(
				`| ${r.round} | ${r.watch.checks.toFixed(0)} | ${r.got.checks.toFixed(0)} | ${(r.watch.checks / r.got.checks).toFixed(2)}x | ` +
					`${per(r.watch.windowCpu, r.watch)} + ${per(r.watch.windowRedisCpu, r.watch)} | ${per(r.got.windowCpu, r.got)} | ` +
					`${cpu(r.watch.runs).toFixed(1)} + ${redisCpu.toFixed(1)} | ${cpu(r.got.runs).toFixed(1)} | ${r.watch.load}; ${r.got.load} |`,
			);
		}
		out.push('');
	}
	if (CASES.has('rate')) {
		const r = await fleetRun(RATE);
		log(`rate: ${r.checks.toFixed(0)} checks/s at --rate ${RATE}/s`);
		rows.push({ round: 'rate', watch: r });
		out.push(`rate: ${WATCHES} × node bin/revisit.js ${r.args.join(' ')}`);
		out.push('');
		out.push(`| --rate | fleet checks/s | off by | per second | load |`);
		out.push('|---:|---:|---:|---|---|');
		out.push(`| ${RATE}/s | ${r.checks.toFixed(1)} | ${(((r.checks - RATE) / RATE) * 100).toFixed(1)}% | ${r.series.join(' ')} | ${r.load} |`);
		out.push('');
	}
	out.push("Per node, each fleet run: the schedule's keys; its script calls (claims, dones); all commands; CPU s");
	out.push('');
	out.push(`| run | ${nodes.map((_, i) => `node ${i + 1}`).join(' | ')} | most on one node |`);
	out.push(`|---|${nodes.map(() => '---').join('|')}|---:|`);
	for (const r of rows) {
		const share = (pick) => Math.max(...r.watch.nodes.map(pick)) / r.watch.nodes.reduce((sum, node) => sum + pick(node), 0);
		out.push(
			`| ${r.round === 'rate' ? 'rate' : `speed ${r.round}`} | ` +
				r.watch.nodes.map((node, i) => `${r.watch.keys[i]} keys; ${node.scripts} scripts; ${node.commands} cmds; ${node.cpu.toFixed(1)} s`).join(' | ') +
				` | keys ` +
				((Math.max(...r.watch.keys) / r.watch.keys.reduce((a, b) => a + b, 0)) * 100).toFixed(0) +
				`%, scripts ${(share((node) => node.scripts) * 100).toFixed(0)}% |`,
		);
	}
	process.stdout.write(`${out.join('\n')}\n`);
} finally {
	for (const cleanup of cleanups.reverse()) await cleanup();
	fs.rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------

function cpu(runs) {
	return runs.reduce((sum, run) => sum + run.cpu, 0);
}

/** Conditional page requests per second from second `from` to `to` after `start` (default: the first request). */
function perSecond(lines, from, to, start) {
	const checks = lines.filter((l) => l.uri.startsWith('/p/') && l.conditional);
	const zero = start ?? checks[0]?.ms ?? 0;
	const series = [];
	for (let s = from; s < to; s++) series.push(checks.filter((l) => l.ms >= zero + s * 1000 && l.ms < zero + (s + 1) * 1000).length);
	return { checks: series.reduce((a, b) => a + b, 0) / series.length, series };
}

/** Runs a child to its end; its wall ms and CPU s (from the preloaded peak-rss hook). */
async function measured(command, args, name, stdinFile) {
	const stats = path.join(dir, `${name}.stats.json`);
	fs.rmSync(stats, { force: true });
	const stdin = stdinFile ? fs.openSync(stdinFile, 'r') : 'ignore';
	const started = Date.now();
	const child = spawn(command, args, { stdio: [stdin, 'ignore', 'pipe'], env: { ...process.env, REVISIT_BENCH_STATS: stats } });
	if (typeof stdin === 'number') fs.closeSync(stdin);
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
	// CPU seconds at each whole second after the start, for the window's share.
	const cpuAt = [0];
	const sampler = setInterval(() => {
		try {
			cpuAt.push(procCpu(child.pid));
		} catch {
			// exited
		}
	}, 1000);
	const [status] = await once(child, 'exit');
	clearInterval(sampler);
	const ms = Date.now() - started;
	if (status !== 0) log(`${name} exited ${status}: ${stderr}`);
	const own = fs.existsSync(stats) ? JSON.parse(fs.readFileSync(stats, 'utf8')) : {};
	return { status, ms, started, cpuAt, cpu: ((own.cpuUserMs ?? 0) + (own.cpuSystemMs ?? 0)) / 1000 };
}

async function startCluster(size) {
	const nodes = [];
	for (let i = 0; i < size; i++) {
		const port = await freePort();
		const home = path.join(dir, `redis-${port}`);
		fs.mkdirSync(home);
		const child = spawn(
			'redis-server',
			[
				'--port',
				String(port),
				'--bind',
				'127.0.0.1',
				'--cluster-enabled',
				'yes',
				'--cluster-config-file',
				'nodes.conf',
				'--save',
				'',
				'--appendonly',
				'no',
				'--dir',
				home,
			],
			{ stdio: 'ignore' },
		);
		const cli = (...args) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
		nodes.push({
			port,
			cli,
			cpu: () => procCpu(child.pid),
			async counts() {
				const stats = cli('INFO', 'commandstats');
				const calls = (re) => [...stats.matchAll(re)].reduce((sum, match) => sum + Number(match[1]), 0);
				const each = Object.fromEntries([...stats.matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)].map((match) => [match[1], Number(match[2])]));
				return { scripts: calls(/cmdstat_eval(?:sha)?:calls=(\d+)/g), commands: calls(/cmdstat_[a-z|]+:calls=(\d+)/g), each, cpu: procCpu(child.pid) };
			},
			async scheduleKeys(prefix) {
				return cli('--scan', '--pattern', `${prefix}{due*`).split('\n').filter(Boolean).length;
			},
			async stop() {
				child.kill('SIGTERM');
				if (child.exitCode === null) await once(child, 'exit');
			},
		});
	}
	for (let tries = 0; nodes.some((node) => node.cli('PING').trim() !== 'PONG'); tries++) {
		if (tries > 100) throw new Error('redis-server did not start');
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	nodes.forEach((node, i) => node.cli('CLUSTER', 'ADDSLOTSRANGE', String(Math.floor((i * 16384) / size)), String(Math.floor(((i + 1) * 16384) / size) - 1)));
	for (const node of nodes.slice(1)) nodes[0].cli('CLUSTER', 'MEET', '127.0.0.1', String(node.port));
	for (let tries = 0; !nodes.every((node) => node.cli('CLUSTER', 'INFO').includes('cluster_state:ok')); tries++) {
		if (tries > 200) throw new Error('the cluster did not form');
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return nodes;
}

/** A process's user + system CPU seconds so far. */
function procCpu(pid) {
	const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) / 100;
}
