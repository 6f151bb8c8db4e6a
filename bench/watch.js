// The freshness of the real `revisit watch`: `node bench/watch.js` (after `npm run build`).
//
// An origin in this process (127.0.0.1) serves N pages (/p/0 ... ; robots.txt 404) whose
// versions change as Poisson processes on the mix of bench/lib/web-mix.js, in the
// SCHEDULE clock: schedule time = T0 + (wall − wall0) · scale, wall0 when the CLI is
// started. Each page has an ETag and a Last-Modified per version and answers 304 when
// either matches. The CLI runs once per seed, with every flag at its default but these:
//   revisit watch --store TMP --rate (B·N)/d --now T0 --time-scale S --until T0+days --ndjson
// with the URLs on stdin. Freshness comes from the origin's own log: a page is fresh
// while the version it last served to revisit (a 200, or a 304 confirming the copy) is
// its current version; time-averaged over each window of --windows (default 30:90,
// or the second half of --days). Every request counts, audits and verification too.
//
// Beside it, on the same pages and change times (bench/lib/watch-policy.js): the model
// of the watch policy (src/watch/threshold.ts's controller, every slot spent: pull-ahead),
// the oracle (true rates), uniform, and the best once-a-day batch.
//
// Parameters: --seeds 1,2 (or --seed), --mix, --pages 500, --days 90, --scale 17280 (a
// simulated day per 5 s), --checks-per-page-day 1, --windows, --args '...' (more CLI
// flags), --no-model, --json FILE, --dump FILE (each page's request times, the CLI's and
// the model's, for a closer look).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { batchChecks, CLI_INTERVALS, simulateWatch, uniformChecks } from './lib/watch-policy.js';
import { byKind, checksPerPageDay, DEFAULT_MIX, freshness, lastChangeAt, makePages, parseMix, versionAt } from './lib/web-mix.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin/revisit.js');
const DAY = 86_400_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
	const i = argv.indexOf(`--${name}`);
	return i === -1 ? fallback : argv[i + 1];
};
const PAGES = Number(flag('pages', 500));
const DAYS = Number(flag('days', 90));
const SCALE = Number(flag('scale', 17_280));
const SEEDS = String(flag('seeds', flag('seed', '1')))
	.split(',')
	.map(Number);
const MIX = parseMix(flag('mix', DEFAULT_MIX));
const BS = String(flag('checks-per-page-day', '1')).split(',').map(Number);
const WINDOWS = String(flag('windows', DAYS >= 90 ? '30:90' : `${DAYS / 2}:${DAYS}`))
	.split(',')
	.map((w) => w.split(':').map(Number));
const EXTRA = String(flag('args', '')).split(' ').filter(Boolean);
const MODEL = !argv.includes('--no-model');
const JSON_OUT = flag('json', undefined);
const DUMP = flag('dump', undefined);
/** How often the CLI updates μ (src/watch/run.ts: every 2 s of wall time), in schedule hours. */
const UPDATE_HOURS = (2 * SCALE) / 3600;

/**
 * Runs the CLI against an origin serving `pages`; returns each page's request times
 * (days since T0, in the origin's clock) and the counts.
 */
async function watch(pages, perPageDay) {
	let wall0 = Date.now();
	const dayNow = () => ((Date.now() - wall0) * SCALE) / DAY;
	const requests = pages.map(() => []);
	const counts = { requests: 0, full: 0, notModified: 0, other: 0 };
	const server = http.createServer((req, res) => {
		const match = /^\/p\/(\d+)$/.exec(new URL(req.url, 'http://x').pathname);
		if (!match || Number(match[1]) >= pages.length) {
			counts.other++;
			res.writeHead(404).end();
			return;
		}
		const i = Number(match[1]);
		const t = dayNow();
		const page = pages[i];
		const version = versionAt(page, t);
		requests[i].push(t);
		counts.requests++;
		const etag = `"${i}-${version}"`;
		const last = lastChangeAt(page, t);
		const lastModified = new Date(Math.floor((T0 + (last === -Infinity ? -365 * DAY : last * DAY)) / 1000) * 1000).toUTCString();
		const since = req.headers['if-modified-since'];
		if (
			req.headers['if-none-match'] === etag ||
			(req.headers['if-none-match'] === undefined && since !== undefined && Date.parse(since) >= Date.parse(lastModified))
		) {
			counts.notModified++;
			res.writeHead(304, { etag, 'last-modified': lastModified }).end();
			return;
		}
		counts.full++;
		res.writeHead(200, { etag, 'last-modified': lastModified, 'content-type': 'text/plain' });
		res.end(`page ${i} version ${version}\n`);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;
	const store = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-watch-bench-'));
	const args = [
		BIN,
		'watch',
		'--store',
		path.join(store, 's'),
		'--rate',
		`${perPageDay * pages.length}/d`,
		'--now',
		String(T0),
		'--time-scale',
		String(SCALE),
		'--until',
		String(T0 + DAYS * DAY),
		'--ndjson',
		...EXTRA,
	];
	const started = Date.now();
	let printed = 0;
	let stderr = '';
	try {
		wall0 = Date.now();
		const status = await new Promise((resolve, reject) => {
			const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
			const limit = setTimeout(() => child.kill('SIGKILL'), ((DAYS * DAY) / SCALE) * 3 + 120_000);
			child.stdout.on('data', (chunk) => (printed += chunk.toString().split('\n').length - 1));
			child.stderr.on('data', (chunk) => (stderr = (stderr + chunk.toString()).slice(-4000)));
			child.on('error', reject);
			child.on('exit', (code, signal) => {
				clearTimeout(limit);
				resolve(code ?? signal);
			});
			child.stdin.end(pages.map((_, i) => `${origin}/p/${i}`).join('\n') + '\n');
		});
		if (status !== 0) console.error(`revisit watch exited ${status}:\n${stderr}`);
		return { requests, counts, printed, status, seconds: Math.round((Date.now() - started) / 1000) };
	} finally {
		server.close();
		fs.rmSync(store, { recursive: true, force: true });
	}
}

const f3 = (x) => (x === undefined ? '-' : x.toFixed(3));
/** Freshness and checks per page per day in [from, to) by kind of the mix: "0.997/0.31, ...". */
const kindsText = (pages, checks, from, to) =>
	byKind(pages, checks, from, to, MIX)
		.map((kind) => `${f3(kind.freshness)}/${kind.perPageDay.toFixed(2)}`)
		.join(', ');
const [from, to] = WINDOWS[0];
console.log(
	`${PAGES} pages on the mix ` +
		MIX.map((kind) => `${kind.share}:${Number(kind.rate.toPrecision(3))}/day`).join(', ') +
		`, ${DAYS} simulated days at --time-scale ${SCALE} (a day per ${(DAY / SCALE / 1000).toFixed(1)} s of wall time; ` +
		`μ updated every ${UPDATE_HOURS.toFixed(1)} schedule hours), freshness over days ` +
		`${WINDOWS.map((w) => w.join('-')).join(', ')}${EXTRA.length ? `; more flags: ${EXTRA.join(' ')}` : ''}\n`,
);
console.log(
	`| seed | B | freshness (watch) ${WINDOWS.map((w) => w.join('-')).join(', ')} | model (pull-ahead) | model oracle | uniform | batch | ` +
		`requests/page/day ${from}-${to} (all days) | 200 / 304 | exit | wall s |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
const results = [];
for (const seed of SEEDS) {
	const pages = makePages(seed, PAGES, DAYS, MIX);
	for (const B of BS) {
		const out = await watch(pages, B);
		const fresh = WINDOWS.map(([a, b]) => freshness(pages, out.requests, a, b));
		const row = {
			seed,
			B,
			freshness: fresh,
			perPageDay: checksPerPageDay(out.requests, from, to),
			perPageDayAll: out.counts.requests / (PAGES * DAYS),
			...out.counts,
			printed: out.printed,
			status: out.status,
			seconds: out.seconds,
		};
		row.kinds = kindsText(pages, out.requests, from, to);
		if (MODEL) {
			const model = simulateWatch(pages, B, to, { dispatch: 'ahead', bounds: CLI_INTERVALS }).checks;
			row.model = freshness(pages, model, from, to);
			row.modelKinds = kindsText(pages, model, from, to);
			if (DUMP) fs.writeFileSync(`${DUMP}.${seed}.${B}.json`, JSON.stringify({ seed, B, cli: out.requests, model }));
			row.oracle = freshness(pages, simulateWatch(pages, B, to, { dispatch: 'ahead', oracle: true, bounds: CLI_INTERVALS }).checks, from, to);
			row.uniform = freshness(pages, uniformChecks(pages, B, to), from, to);
			row.batch = freshness(pages, batchChecks(pages, B, to), from, to);
		}
		if (DUMP && !MODEL) fs.writeFileSync(`${DUMP}.${seed}.${B}.json`, JSON.stringify({ seed, B, cli: out.requests }));
		results.push(row);
		console.error(JSON.stringify(row));
		console.error(
			`seed ${seed} B ${B}: freshness/checks a page a day by kind ` +
				MIX.map((kind) => `${Number(kind.rate.toPrecision(3))}/d`).join(', ') +
				`: watch ${row.kinds}; model ${row.modelKinds ?? '-'}`,
		);
		console.log(
			`| ${seed} | ${B} | ${fresh.map(f3).join(', ')} | ${f3(row.model)} | ${f3(row.oracle)} | ${f3(row.uniform)} | ${f3(row.batch)} | ` +
				`${row.perPageDay.toFixed(3)} (${row.perPageDayAll.toFixed(3)}) | ${row.full} / ${row.notModified} | ${row.status} | ${row.seconds} |`,
		);
	}
}
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
process.exitCode = results.every((row) => row.status === 0) ? 0 : 1;
