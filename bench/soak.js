// revisit soak test: `npm run build && node bench/soak.js [--quick] [--md bench/SOAK.md]`.
//
// Ten consecutive sweeps (`node bin/revisit.js sweep --ndjson --all`, each a child
// process) of N URLs (20,000; 2,000 with --quick) on one store, against a local origin
// (this file again, forked with --origin: its own process, 127.0.0.1, ephemeral port).
// Pages carry an ETag (a third), a Last-Modified only (a third) or no validator (a third),
// and answer 304 to a matching conditional request.
//
// Before every run but the first, a random 5% of pages change (a new version: new body,
// new validator); before every run, a random 5% of URLs are set to fail for the whole run, a third each
// by connection reset, 503 and no answer at all (the sweep's --timeout 1 cuts it off;
// --retries 0, so each failure is one request). A change to a failing page is owed: it
// must come out on the first later run where the page answers.
//
// After each run the reported changes are checked against the truth: exactly the pages
// whose current version was never reported (changed since, or never seen) and that did
// not fail in this run. "missed" = owed and answered but not reported; "false alarms" =
// reported but not owed. Every injected failure must be an `error` verdict with its code
// (ECONNRESET, HTTP_503, ETIMEDOUT); other errors are counted as unexpected.
//
// In 3 of the 10 runs (chosen by the seeded PRNG) the sweep is SIGKILLed once a random
// 10–90% of its verdicts are out, and the run is started again on the same store: the
// verdicts of the killed part and of the restart together must deliver every owed change
// (a change printed by the killed part but not yet committed may come out twice; that is
// by design and counted as "again"), and the restart alone must raise no false alarm.
//
// Memory: each child's peak RSS (VmHWM, polled from /proc/<pid>/status every 20 ms;
// Linux). Store: the total size of the store directory's files after each run. Both must
// stay flat: after the first run (which creates every record) no run may exceed the
// larger of the first two runs' figure by more than 50% (RSS) or 100% (store; LevelDB's
// log and compactions make it breathe), and the last run's store may not exceed 1.5×
// the second's.
//
// Options: --quick, --urls N, --runs N (10), --kills N (3), --seed N (42),
// --md FILE (write the report as Markdown), --append (add to FILE instead),
// --keep-tmp. Exit status 1 when any check fails. Only 127.0.0.1 is contacted, every
// wait is bounded, and each child has a hard timeout.
import { fork, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mulberry32 } from './lib/prng.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const SCRATCH = path.join(HERE, '.tmp'); // git-ignored

// ---------------------------------------------------------------------------------------
// The origin (child process)

function origin() {
	/** page id → version (0 = first), and the failure set for the current run. */
	let versions = new Uint32Array(0);
	let failing = new Map();
	const stats = { requests: 0, ok: 0, notModified: 0, reset: 0, busy: 0, hung: 0 };
	const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20);
	const PATH = /^\/p\/(\d{1,7})$/;
	const EPOCH = Date.UTC(2024, 0, 1) / 1000;
	const lastModified = (n, v) => new Date((EPOCH + n * 60 + v * 86_400) * 1000).toUTCString();

	const server = http.createServer((req, res) => {
		stats.requests++;
		const n = Number(PATH.exec(req.url ?? '')?.[1] ?? -1);
		if (n < 0 || n >= versions.length) return void res.writeHead(404, { 'content-length': '0' }).end();
		switch (failing.get(n)) {
			case 'reset':
				stats.reset++;
				return void req.socket.resetAndDestroy();
			case 'busy':
				stats.busy++;
				return void res.writeHead(503, { 'content-length': '4' }).end('busy');
			case 'hang': {
				stats.hung++;
				// Never answers; the client gives up at its --timeout. Dropped after a while regardless.
				const timer = setTimeout(() => req.socket.destroy(), 30_000);
				req.socket.once('close', () => clearTimeout(timer));
				return;
			}
		}
		const v = versions[n];
		const kind = n % 3; // 0: ETag, 1: Last-Modified only, 2: no validator
		const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' };
		if (kind === 0) {
			headers.etag = `"p${n}-v${v}"`;
			if (req.headers['if-none-match'] === headers.etag) {
				stats.notModified++;
				return void res.writeHead(304, headers).end();
			}
		} else if (kind === 1) {
			headers['last-modified'] = lastModified(n, v);
			if (req.headers['if-modified-since'] === headers['last-modified']) {
				stats.notModified++;
				return void res.writeHead(304, headers).end();
			}
		}
		const body = `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1><p>Version ${v}.</p><p>${FILLER}</p></body></html>\n`;
		stats.ok++;
		res.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(body)) }).end(body);
	});
	server.keepAliveTimeout = 60_000;
	server.headersTimeout = 65_000;
	server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
	process.on('message', (message) => {
		if (message.type === 'pages') versions = new Uint32Array(message.count);
		else if (message.type === 'edit') for (const n of message.ids) versions[n]++;
		else if (message.type === 'fail') failing = new Map(message.entries);
		else if (message.type === 'close') {
			server.closeAllConnections();
			server.close();
			process.disconnect();
			return;
		}
		process.send({ type: 'ack', seq: message.seq, stats });
	});
	process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------
// The soak (parent)

async function soak() {
	const { values: flags } = parseArgs({
		options: {
			quick: { type: 'boolean', default: false },
			urls: { type: 'string' },
			runs: { type: 'string', default: '10' },
			kills: { type: 'string', default: '3' },
			seed: { type: 'string', default: '42' },
			md: { type: 'string' },
			append: { type: 'boolean', default: false },
			'keep-tmp': { type: 'boolean', default: false },
		},
	});
	const count = (name, value, min) => {
		const number = Number(value);
		if (!Number.isInteger(number) || number < min) throw new TypeError(`--${name} must be an integer >= ${min} (got ${value})`);
		return number;
	};
	const N = count('urls', flags.urls ?? (flags.quick ? 2000 : 20_000), 10);
	const RUNS = count('runs', flags.runs, 2);
	const KILLS = Math.min(count('kills', flags.kills, 0), RUNS);
	const SEED = count('seed', flags.seed, 0);
	const CHANGE_RATE = 0.05;
	const FAIL_RATE = 0.05;
	const CHILD_TIMEOUT_MS = 10 * 60_000;
	const SWEEP_FLAGS = ['--ndjson', '--all', '--timeout', '1', '--retries', '0', '--concurrency', '64', '--per-host', '64'];

	const random = mulberry32(SEED);
	const pick = (ids, rate) => ids.filter(() => random() < rate);
	const kinds = ['reset', 'busy', 'hang'];
	const CODE = { reset: 'ECONNRESET', busy: 'HTTP_503', hang: 'ETIMEDOUT' };
	const killRuns = new Set(
		shuffle(
			Array.from({ length: RUNS }, (_, i) => i + 1),
			random,
		).slice(0, KILLS),
	);

	// A snapshot of the build, so a rebuild of dist/ during the soak can't change what is measured.
	const build = path.join(SCRATCH, `soak-build-${process.pid}`);
	for (const part of ['bin', 'dist']) fs.cpSync(path.join(ROOT, part), path.join(build, part), { recursive: true });
	fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(build, 'package.json'));
	const BIN = path.join(build, 'bin', 'revisit.js');
	const store = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-soak-'));

	const originChild = fork(fileURLToPath(import.meta.url), ['--origin'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const ready = await withTimeout(new Promise((resolve) => originChild.once('message', resolve)), 30_000, 'origin start');
	let seq = 0;
	const tell = (message) =>
		withTimeout(
			new Promise((resolve) => {
				const id = ++seq;
				const onMessage = (reply) => {
					if (reply.type === 'ack' && reply.seq === id) {
						originChild.off('message', onMessage);
						resolve(reply.stats);
					}
				};
				originChild.on('message', onMessage);
				originChild.send({ ...message, seq: id });
			}),
			30_000,
			`origin ${message.type}`,
		);
	const url = (n) => `http://127.0.0.1:${ready.port}/p/${n}`;
	const idOf = new Map(Array.from({ length: N }, (_, n) => [url(n), n]));
	const input = Array.from({ length: N }, (_, n) => `${url(n)}\n`).join('');
	await tell({ type: 'pages', count: N });

	const version = new Uint32Array(N);
	const reportedVersion = new Int32Array(N).fill(-1); // the version last reported as changed; -1: never
	const started = new Date();
	const rows = [];
	const problems = [];
	const log = (text) => process.stderr.write(`${text}\n`);
	log(`soak: ${N} URLs, ${RUNS} runs, kills in runs ${[...killRuns].sort((a, b) => a - b).join(', ') || 'none'}, seed ${SEED}, store ${store}`);

	try {
		for (let run = 1; run <= RUNS; run++) {
			const ids = Array.from({ length: N }, (_, n) => n);
			const edited = run === 1 ? [] : pick(ids, CHANGE_RATE);
			for (const n of edited) version[n]++;
			if (edited.length > 0) await tell({ type: 'edit', ids: edited });
			const failures = new Map(pick(ids, FAIL_RATE).map((n) => [n, kinds[Math.floor(random() * kinds.length)]]));
			await tell({ type: 'fail', entries: [...failures] });
			const owedBefore = ids.filter((n) => reportedVersion[n] !== version[n]);

			const attempts = [];
			if (killRuns.has(run)) {
				const after = Math.floor(N * (0.1 + 0.8 * random()));
				attempts.push(await sweep(BIN, store, input, SWEEP_FLAGS, { killAfterLines: after, timeoutMs: CHILD_TIMEOUT_MS }));
			}
			attempts.push(await sweep(BIN, store, input, SWEEP_FLAGS, { timeoutMs: CHILD_TIMEOUT_MS }));
			const final = attempts.at(-1);
			const killed = attempts.length > 1 ? attempts[0] : undefined;

			// The truth for this run.
			const failed = new Set();
			const unexpected = [];
			const wrongCode = [];
			for (const verdict of final.verdicts) {
				if (verdict.reason !== 'error') continue;
				const n = idOf.get(verdict.url);
				failed.add(n);
				if (!failures.has(n)) unexpected.push(`${verdict.url} ${verdict.error?.code}`);
				else if (verdict.error?.code !== CODE[failures.get(n)]) wrongCode.push(`${verdict.url}: ${verdict.error?.code}, expected ${CODE[failures.get(n)]}`);
			}
			const notFailed = [...failures.keys()].filter((n) => !failed.has(n));
			const owed = new Set(owedBefore.filter((n) => !failed.has(n)));
			const changed = (attempt) => new Set(attempt.verdicts.filter((verdict) => verdict.changed).map((verdict) => idOf.get(verdict.url)));
			const reported = changed(final);
			const killedReported = killed ? changed(killed) : new Set();
			const delivered = new Set([...reported, ...killedReported]);
			const missed = [...owed].filter((n) => !delivered.has(n));
			const falseAlarms = [...delivered].filter((n) => !owed.has(n));
			const again = [...killedReported].filter((n) => reported.has(n)).length;
			for (const n of delivered) if (owed.has(n)) reportedVersion[n] = version[n];
			const carried = owedBefore.filter((n) => reportedVersion[n] !== version[n]).length;

			const row = {
				run,
				urls: final.verdicts.length,
				edited: edited.length,
				owed: owed.size,
				reported: delivered.size,
				again,
				missed: missed.length,
				falseAlarms: falseAlarms.length,
				injected: failures.size,
				errors: failed.size,
				unexpected: unexpected.length,
				carried,
				killedAt: killed ? killed.lines : undefined,
				exit: attempts.map((attempt) => attempt.signal ?? attempt.status).join(' → '),
				peakRss: Math.max(...attempts.map((attempt) => attempt.peakRss)),
				storeBytes: dirBytes(store),
				seconds: attempts.reduce((sum, attempt) => sum + attempt.ms, 0) / 1000,
			};
			rows.push(row);
			log(
				`run ${run}: ${row.urls} verdicts, ${row.reported} changes reported (${row.owed} owed: ${row.edited} new edits), missed ${row.missed}, ` +
					`false alarms ${row.falseAlarms}, ` +
					`${row.errors} errors (${row.injected} injected, ${row.unexpected} unexpected), carried ${row.carried}, ` +
					(`${killed ? `killed after ${killed.lines} verdicts, ${again} again, ` : ''}exit ${row.exit}, peak RSS ${mb(row.peakRss)}, ` +
						`store ${mb(row.storeBytes)}, ${row.seconds.toFixed(1)} s`),
			);

			const fail = (what) => problems.push(`run ${run}: ${what}`);
			if (final.verdicts.length !== N) fail(`${final.verdicts.length} verdicts for ${N} URLs`);
			if (new Set(final.verdicts.map((verdict) => verdict.url)).size !== final.verdicts.length) fail('a URL got two verdicts');
			if (missed.length) fail(`missed ${missed.length} changes, e.g. ${missed.slice(0, 3).map(url).join(' ')}`);
			if (falseAlarms.length) fail(`${falseAlarms.length} false alarms, e.g. ${falseAlarms.slice(0, 3).map(url).join(' ')}`);
			if (notFailed.length) fail(`${notFailed.length} injected failures did not fail, e.g. ${notFailed.slice(0, 3).map(url).join(' ')}`);
			if (wrongCode.length) fail(`${wrongCode.length} failures with the wrong code, e.g. ${wrongCode.slice(0, 3).join('; ')}`);
			if (unexpected.length) fail(`${unexpected.length} unexpected errors, e.g. ${unexpected.slice(0, 3).join('; ')}`);
			if (final.status !== (failed.size > 0 ? 1 : 0)) fail(`exit status ${final.status}`);
			if (killed && killed.signal !== 'SIGKILL') fail(`the sweep to kill ended by itself (${killed.signal ?? killed.status}) before ${killed.lines} verdicts`);
			if (/\n\s+at /.test(final.stderr)) fail(`a stack trace on stderr: ${final.stderr.slice(0, 300)}`);
		}

		// Flat memory and store, apart from the first run's growth.
		const rss = rows.map((row) => row.peakRss);
		const sizes = rows.map((row) => row.storeBytes);
		const rssBase = Math.max(...rss.slice(0, 2));
		const sizeBase = Math.max(...sizes.slice(0, 2));
		rows.forEach((row, i) => {
			if (i >= 2 && row.peakRss > rssBase * 1.5) problems.push(`run ${row.run}: peak RSS ${mb(row.peakRss)} is over 1.5 × ${mb(rssBase)}`);
			if (i >= 2 && row.storeBytes > sizeBase * 2) problems.push(`run ${row.run}: store ${mb(row.storeBytes)} is over 2 × ${mb(sizeBase)}`);
		});
		if (sizes.at(-1) > sizes[1] * 1.5) problems.push(`store grew from ${mb(sizes[1])} (run 2) to ${mb(sizes.at(-1))} (run ${RUNS})`);
		const owedAtEnd = Array.from({ length: N }, (_, n) => n).filter((n) => reportedVersion[n] !== version[n]);
		const originStats = await tell({ type: 'stats' });

		const verdict = problems.length === 0 ? 'PASS' : 'FAIL';
		const report = markdown({ N, RUNS, SEED, killRuns, rows, problems, verdict, started, owedAtEnd, originStats, flags });
		process.stdout.write(report);
		if (flags.md) {
			if (flags.append && fs.existsSync(flags.md)) fs.appendFileSync(flags.md, `\n${report}`);
			else fs.writeFileSync(flags.md, `${TITLE}\n${report}`);
		}
		process.exitCode = problems.length === 0 ? 0 : 1;
	} finally {
		await tell({ type: 'close' }).catch(() => {});
		originChild.kill();
		if (!flags['keep-tmp']) {
			fs.rmSync(store, { recursive: true, force: true });
			fs.rmSync(build, { recursive: true, force: true });
		}
	}
}

/**
 * One sweep as a child process: its verdicts, exit, peak RSS and time. With
 * `killAfterLines`, SIGKILLed once that many verdicts are out.
 */
function sweep(bin, store, input, extra, { killAfterLines, timeoutMs }) {
	return new Promise((resolve) => {
		const t0 = performance.now();
		const child = spawn(process.execPath, [bin, 'sweep', '--store', store, ...extra], { stdio: ['pipe', 'pipe', 'pipe'] });
		let pending = '';
		const verdicts = [];
		let stderr = '';
		let peakRss = 0;
		let killed = false;
		child.stdout.on('data', (chunk) => {
			pending += chunk.toString();
			const lines = pending.split('\n');
			pending = lines.pop();
			for (const line of lines) if (line) verdicts.push(JSON.parse(line));
			if (killAfterLines !== undefined && !killed && verdicts.length >= killAfterLines) {
				killed = true;
				child.kill('SIGKILL');
			}
		});
		child.stderr.on('data', (chunk) => {
			if (stderr.length < 1_000_000) stderr += chunk.toString();
		});
		child.stdin.on('error', () => {}); // a killed child may not take all of its input
		child.stdin.end(input);
		const poll = setInterval(() => {
			try {
				const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
				peakRss = Math.max(peakRss, kb * 1024);
			} catch {
				// Gone already, or not Linux.
			}
		}, 20);
		const hardTimeout = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('close', (status, signal) => {
			clearInterval(poll);
			clearTimeout(hardTimeout);
			resolve({ status, signal, verdicts, lines: verdicts.length, stderr, peakRss, ms: performance.now() - t0 });
		});
	});
}

const TITLE = `# Soak test

\`bench/soak.js\` sweeps the same URLs ten times in a row, each sweep the real CLI in its own
process, against a local origin (its own process on 127.0.0.1) that edits a random 5% of
its pages between runs and fails a random 5% of requests per run (connection reset, 503,
no answer until the sweep's 1 s timeout). After each run the changes reported are
compared with the real ones: the pages changed since they were last reported, minus those
that failed in this run, which are owed and must come out on a later run. In 3 runs the
sweep is SIGKILLed part-way and started again, and the two together must deliver every
owed change. Peak RSS (VmHWM from /proc, polled) and the store's size on disk are
recorded per run. The file's header comment has the details.
`;

function markdown({ N, RUNS, SEED, killRuns, rows, problems, verdict, started, owedAtEnd, originStats, flags }) {
	const cpu = os.cpus();
	const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
	const command = [
		'node bench/soak.js',
		...(flags.quick ? ['--quick'] : []),
		...(flags.urls ? [`--urls ${flags.urls}`] : []),
		...(RUNS !== 10 ? [`--runs ${RUNS}`] : []),
		...(killRuns.size !== 3 ? [`--kills ${killRuns.size}`] : []),
		`--seed ${SEED}`,
		...(flags.md ? [`--md ${flags.md}`] : []),
		...(flags.append ? ['--append'] : []),
	].join(' ');
	const n = (value) => value.toLocaleString('en-US');
	const lines = [
		`## Soak: ${n(N)} URLs × ${RUNS} runs${flags.quick ? ' (--quick)' : ''}`,
		'',
		'```sh',
		`npm run build && ${command}`,
		'```',
		'',
		`Date: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ` +
			`${os.type()} ${os.release()}, Node.js ${process.version}, commit ${git} (plus uncommitted changes in the working tree).`,
		`Sweep flags: \`--ndjson --all --timeout 1 --retries 0 --concurrency 64 --per-host 64\` (audits at the default 2%). Runs SIGKILLed and restarted: ` +
			`${[...killRuns].sort((a, b) => a - b).join(', ') || 'none'}.`,
		'',
		'Columns: *edited* pages changed before the run; *owed* changes due (never reported at their current version) on pages that answered; ' +
			'*reported* distinct changed URLs printed (killed part and restart together); *again* printed by the killed part and again by the restart; ' +
			'*missed* / *false alarms* against *owed*; *failures* error verdicts (injected 5%: reset, 503, no answer); ' +
			'*unexpected* errors on pages that were not set to fail; *carried* changes still owed after the run because their page failed; ' +
			"*killed at* verdicts out when SIGKILLed; *peak RSS* the highest of the run's processes; *store* bytes in the store directory after the run.",
		'',
		'| run | URLs | edited | owed | reported | again | missed | false alarms | ' +
			'failures | unexpected | carried | killed at | exit | peak RSS | store | seconds |',
		'|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|',
		...rows.map(
			(row) =>
				`| ${row.run} | ${n(row.urls)} | ${n(row.edited)} | ${n(row.owed)} | ${n(row.reported)} | ${n(row.again)} | ${row.missed} | ${row.falseAlarms} |` +
				` ${n(row.errors)} | ${row.unexpected} | ${n(row.carried)} | ${row.killedAt === undefined ? '' : n(row.killedAt)} | ${row.exit} | ` +
				`${mb(row.peakRss)} | ${mb(row.storeBytes)} | ${row.seconds.toFixed(1)} |`,
		),
		'',
		`Origin: ${n(originStats.requests)} requests, ${n(originStats.ok)} 200s, ${n(originStats.notModified)} 304s, ${n(originStats.reset)} resets, ` +
			`${n(originStats.busy)} 503s, ${n(originStats.hung)} never answered. Changes still owed after the last run: ` +
			`${n(owedAtEnd.length)} (all on pages that failed in it).`,
		'',
		problems.length === 0
			? `**Verdict: ${verdict}.** Every run reported exactly the owed changes (none missed, no false alarm), ` +
				`every injected failure was an error verdict with its code and no other request failed, each killed run's restart delivered everything, ` +
				`and peak RSS and store size stayed flat after the first run.`
			: `**Verdict: ${verdict}.**\n\n${problems.map((problem) => `- ${problem}`).join('\n')}`,
		'',
	];
	return lines.join('\n');
}

function dirBytes(dir) {
	let total = 0;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		total += entry.isDirectory() ? dirBytes(full) : fs.statSync(full).size;
	}
	return total;
}

function mb(bytes) {
	return `${(bytes / 1e6).toFixed(1)} MB`;
}

function withTimeout(promise, ms, what) {
	let timer;
	return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`soak: timed out waiting for ${what}`)), ms)))]).finally(
		() => clearTimeout(timer),
	);
}

function shuffle(items, random) {
	for (let i = items.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[items[i], items[j]] = [items[j], items[i]];
	}
	return items;
}

// Last, so every module-level constant above is initialised before either role starts.
if (process.argv[2] === '--origin') {
	origin();
} else {
	await soak();
}
