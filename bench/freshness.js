// Freshness under a request budget: `node bench/freshness.js` (after `npm run build`).
//
// Pages change as Poisson processes in simulated time, on a web-like mix: half about
// twice a year, 30% about weekly, 20% about daily, each rate spread x/÷3 (log-uniform).
// Change times are drawn once (seeded) and shared by every row. Each run checks a share
// of the pages (10%, 20%; 1 is no budget), one run a simulated day by default, N with
// --runs-per-day N (runs at simulated times k/N days, k = 0, 1, ...). Freshness is the
// time-averaged share of pages whose last check came after their last change, counted
// over the second half of the days (the window: runs at times >= days/2).
//
// The budget is per run: share x pages each run, whatever N (so a day's requests are up
// to N times that). uniform, oracle, model and the revisit rows take the same runs at
// the same simulated times; nutch is defined in days (intervals of 1 to 90 days) and is
// only run at one run a day (the bench refuses it otherwise).
//
// Counted for each row, over all the days and over the window:
//   checks         the URLs checked (requested from the origin, for the revisit rows);
//   found          the checks that found a change: the page's version at that check
//                  differs from its version at the page's check before (a page's first
//                  check finds none), whenever that check before was;
//   overhead       window checks / window found - 1: what was spent beyond the checks
//                  that found something;
//   vs changed     window checks / changed - 1, where changed (the same for every row of
//                  a set-up) counts, for each run in the window, the pages whose version
//                  at that run differs from their version at the run before: the checks a
//                  policy that knew the change times would need to be as fresh as
//                  checking every page every run (several changes of a page between two
//                  runs count once).
// A policy at the every-page ceiling finds every such change at the next run, so there
// found = changed and both overheads are the same.
//
// Rows:
//   uniform   round-robin over the pages, the budget's worth a day (simulated, no CLI)
//   nutch     Nutch-style adaptive: interval x1.4 when unchanged, x0.8 when changed,
//             within 1..90 days, starting at 1 day; each day the most overdue pages first,
//             up to the budget (simulated, no CLI)
//   oracle    the true rates: each day the pages with the highest psi(rate, days since
//             checked), the index whose common threshold gives Cho and Garcia-Molina's
//             optimal allocation (simulated, no CLI)
//   model     revisit's own estimator and pick (dist/domain/schedule/), simulated without the CLI
//   revisit   the real CLI, once a run: `revisit sweep --budget B --now T`
//             with every URL on stdin, against a local origin (127.0.0.1, ephemeral port)
//             that serves each page's version at the simulated time the bench passes to
//             --now (the bench sets it before each run; the server reads it from there).
//             Which URLs were checked is what the origin saw requested.
//   revisit+lastmod-true / revisit+lastmod-lie: the same through a pipeline file (`revisit
//             run`, its due stage's budget and now), the URLs read
//             from the origin's sitemap.xml whose <lastmod> is each page's last change, or
//             always 2000-01-01 ("long ago").
//
// The revisit rows run the CLI with its default flags (robots.txt obeyed: the origin
// answers 404; --verify-every 30d; the audit; the churn guard), as a user runs it.
//
// Options: --pages N (2000), --days N (120), --shares 0.1,0.2, --seeds 1,2,3 (or --seed N;
// 1), --mix share:rate,... (0.5:2/365,0.3:1/7,0.2:1: shares of the pages and their base
// rates a day), --runs-per-day N (1), --rows uniform,nutch,oracle,revisit (default; also
// model, revisit+lastmod-true, revisit+lastmod-lie; a share of 1 is no budget at all),
// --verify-every D (sets the revisit rows' --verify-every, for a comparison), --args "..."
// (extra sweep flags for the revisit rows), --json FILE (also each revisit row's checks
// per run, and its host's lastmod trust from `revisit stats --json`). Prints a markdown
// table, and checks the targets per seed: at the first share, revisit >= oracle - 0.02
// and > nutch, no failed run (an exit status other than 0: 3 is the churn guard), none
// over budget; and with an accurate lastmod at a share of 1. Exit 1 if a target is missed
// or a run checked more URLs than its budget.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshness, lastChangeAt, makePages as drawPages, parseMix, psi, versionAt } from './lib/web-mix.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin/revisit.js');
const DAY = 86_400_000;
const BASE = Date.parse('2030-01-01T00:00:00Z');

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
	const i = argv.indexOf(`--${name}`);
	return i === -1 ? fallback : argv[i + 1];
};
const PAGES = Number(flag('pages', 2000));
const DAYS = Number(flag('days', 120));
const SHARES = String(flag('shares', '0.1,0.2')).split(',').map(Number);
// --seeds 1,2,3 runs every row on each seed's pages (--seed N is one seed).
const SEEDS = String(flag('seeds', flag('seed', '1')))
	.split(',')
	.map(Number);
// --mix share:rate,...: the shares of pages and their base rates (changes a day, or a/b), each spread x/÷3.
const MIX = parseMix(flag('mix', '0.5:2/365,0.3:1/7,0.2:1'));
const ROWS = String(flag('rows', 'uniform,nutch,oracle,revisit')).split(',');
const EXTRA = String(flag('args', '')).split(' ').filter(Boolean);
const JSON_OUT = flag('json', undefined);
const RUNS = Number(flag('runs-per-day', 1));
// The revisit rows run the CLI's defaults; --verify-every D (or --args) sets one for a comparison.
const VERIFY_EVERY = flag('verify-every', undefined);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs-per-day takes a whole number >= 1');
if (RUNS !== 1 && ROWS.includes('nutch')) throw new Error('nutch is defined in days: run it with --runs-per-day 1');
/** The simulated time of every run, in days: k / RUNS. */
const TIMES = Array.from({ length: DAYS * RUNS }, (_, k) => k / RUNS);

/** True rates (per day) and change times (days) of every page, drawn from `seed` on the --mix. */
const makePages = (seed) => drawPages(seed, PAGES, DAYS, MIX);

/** A simulated policy: each run at time t (days) `choose(t)` returns page indices to check. */
function simulate(pages, budget, choose) {
	const checks = pages.map(() => []);
	for (const t of TIMES) {
		for (const i of choose(t, checks)) checks[i].push(t);
	}
	return checks;
}

function uniform(pages, budget) {
	let next = 0;
	return simulate(pages, budget, () => {
		const out = [];
		for (let k = 0; k < budget; k++) out.push((next + k) % pages.length);
		next = (next + budget) % pages.length;
		return out;
	});
}

function nutch(pages, budget) {
	const interval = pages.map(() => 1);
	const seenVersion = pages.map(() => -1);
	return simulate(pages, budget, (day, checks) => {
		const due = [];
		pages.forEach((_, i) => {
			const last = checks[i].at(-1);
			if (last === undefined) due.push([i, Infinity]);
			else if (last + interval[i] <= day) due.push([i, day - (last + interval[i])]);
		});
		due.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
		const out = due.slice(0, budget).map(([i]) => i);
		for (const i of out) {
			const v = versionAt(pages[i], day);
			if (seenVersion[i] >= 0) interval[i] = Math.min(90, Math.max(1, interval[i] * (v !== seenVersion[i] ? 0.8 : 1.4)));
			seenVersion[i] = v;
		}
		return out;
	});
}

function oracle(pages, budget) {
	return simulate(pages, budget, (t, checks) => {
		const scored = pages.map((page, i) => {
			const last = checks[i].at(-1);
			return [i, last === undefined ? Infinity : psi(page.rate, t - last)];
		});
		scored.sort((a, b) => (a[1] === b[1] ? a[0] - b[0] : b[1] - a[1]));
		return scored.slice(0, budget).map(([i]) => i);
	});
}

/** revisit's own estimator and pick (dist/domain/schedule/), simulated without the CLI: for quick tuning. */
async function model(pages, budget) {
	const { addCheck, estimateRate } = await import(path.join(ROOT, 'dist/domain/schedule/rate.js'));
	const { candidateOf, pick } = await import(path.join(ROOT, 'dist/domain/schedule/pick.js'));
	const records = pages.map(() => null);
	return simulate(pages, budget, (t) => {
		const now = BASE + t * DAY;
		const chosen = pick(
			records.map((record) => candidateOf(record, 'o', {}, now)),
			{ budget },
		);
		const out = [];
		chosen.forEach((taken, i) => {
			if (!taken) return;
			out.push(i);
			const version = versionAt(pages[i], t);
			const record = records[i];
			const checks = record ? addCheck(record.checks, now - record.lastChecked, version !== record.version) : [];
			records[i] = { v: 1, status: 200, lastChecked: now, version, checks, rate: estimateRate(checks) };
		});
		return out;
	});
}

/** The real CLI, once a run (RUNS a simulated day), against an origin in this process. */
async function revisit(pages, budget, lastmod) {
	let simDay = 0;
	let requested = new Set();
	const server = http.createServer((req, res) => {
		const url = new URL(req.url, 'http://x');
		if (url.pathname === '/sitemap.xml') {
			const entries = pages.map((page, i) => {
				const last = lastChangeAt(page, simDay);
				const when = lastmod === 'lie' ? '2000-01-01T00:00:00Z' : new Date(BASE + (last === -Infinity ? -365 * DAY : last * DAY)).toISOString();
				return `<url><loc>http://${req.headers.host}/p/${i}</loc><lastmod>${when}</lastmod></url>`;
			});
			res.writeHead(200, { 'content-type': 'application/xml' });
			res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`);
			return;
		}
		const match = /^\/p\/(\d+)$/.exec(url.pathname);
		if (!match) {
			res.writeHead(404).end();
			return;
		}
		const i = Number(match[1]);
		requested.add(i);
		sent++;
		const version = versionAt(pages[i], simDay);
		const etag = `"${i}-${version}"`;
		if (req.headers['if-none-match'] === etag) {
			res.writeHead(304, { etag }).end();
			return;
		}
		res.writeHead(200, { etag, 'content-type': 'text/plain' });
		res.end(`page ${i} version ${version}\n`);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;
	const store = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-freshness-'));
	const urls = pages.map((_, i) => `${origin}/p/${i}`).join('\n') + '\n';
	const checks = pages.map(() => []);
	let overBudget = 0;
	let requests = 0;
	// Every page request, audits of 304s (a second request for a page) included.
	let sent = 0;
	const statuses = [];
	const perRun = [];
	let trust;
	const started = Date.now();
	try {
		for (const t of TIMES) {
			simDay = t;
			requested = new Set();
			let args;
			if (lastmod) {
				// A sitemap is a pipeline file's source: the same settings, as stage options.
				const file = path.join(store, 'pipeline.json');
				fs.writeFileSync(
					file,
					JSON.stringify({
						store: path.join(store, 's'),
						source: { type: 'sitemap', url: `${origin}/sitemap.xml` },
						stages: [{ use: 'due', budget, now: BASE + t * DAY }, ...(VERIFY_EVERY === undefined ? [] : [{ use: 'probe', verifyEvery: VERIFY_EVERY }])],
						sinks: [{ type: 'stdout' }],
					}),
				);
				args = [BIN, 'run', file, '-q'];
			} else {
				args = [
					BIN,
					'sweep',
					'--store',
					path.join(store, 's'),
					'-q',
					'--budget',
					String(budget),
					'--now',
					String(BASE + t * DAY),
					...(VERIFY_EVERY === undefined ? [] : ['--verify-every', VERIFY_EVERY]),
					...EXTRA,
				];
			}
			// A run that exits other than 0 (3: the churn guard held changes back) is a failed run.
			statuses.push(
				await new Promise((resolve, reject) => {
					const child = spawn(process.execPath, args, { stdio: [lastmod ? 'ignore' : 'pipe', 'ignore', 'inherit'] });
					const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
					child.on('error', reject);
					child.on('exit', (code, signal) => {
						clearTimeout(timer);
						resolve(code ?? signal);
					});
					if (!lastmod) child.stdin.end(urls);
				}),
			);
			if (requested.size > budget) overBudget++;
			requests += requested.size;
			perRun.push(requested.size);
			for (const i of requested) checks[i].push(t);
		}
		if (lastmod) trust = await hostTrust(path.join(store, 's'));
	} finally {
		server.close();
		fs.rmSync(store, { recursive: true, force: true });
	}
	const failedRuns = statuses.filter((status) => status !== 0).length;
	return { checks, overBudget, requests, sent, failedRuns, exits: [...new Set(statuses)], perRun, trust, seconds: Math.round((Date.now() - started) / 1000) };
}

/** The host's lastmod trust at the end, from `revisit stats --json` (right, wrong, skipped, sampled). */
async function hostTrust(store) {
	const out = await new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [BIN, 'stats', '--store', store, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
		let text = '';
		child.stdout.on('data', (chunk) => (text += chunk));
		child.on('error', reject);
		child.on('exit', () => resolve(text));
	});
	try {
		return JSON.parse(out).lastmod;
	} catch {
		return out;
	}
}

const from = DAYS / 2;
const windowRuns = TIMES.filter((t) => t >= from);
const results = [];
let failed = false;
const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
console.log(
	`${PAGES} pages on the mix ` +
		MIX.map((kind) => `${kind.share}:${Number(kind.rate.toPrecision(3))}/day`).join(', ') +
		`, ${DAYS} simulated days, ${RUNS} run${RUNS === 1 ? '' : 's'} a day (${TIMES.length} runs; the window: ` +
		`freshness and the window counts over days ${from}..${DAYS}, ${windowRuns.length} runs), seeds ${SEEDS.join(', ')}; ` +
		`the revisit rows with the CLI's default flags` +
		(VERIFY_EVERY === undefined ? '' : ` but --verify-every ${VERIFY_EVERY}`) +
		`${EXTRA.length ? ` and ${EXTRA.join(' ')}` : ''}\n`,
);
console.log(
	'| seed | share a run | policy | freshness | checks (all days) | found a change (all days) | checks (window) ' +
		'| found a change (window) | overhead | vs changed | requests (audits too) | runs over budget | failed runs (exit status) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const seed of SEEDS) {
	const pages = makePages(seed);
	// Pages whose version changed between consecutive runs, summed over the runs in the window.
	const changedBetweenRuns = pages.reduce((sum, page) => sum + windowRuns.filter((t) => versionAt(page, t) !== versionAt(page, t - 1 / RUNS)).length, 0);
	for (const share of SHARES) {
		const budget = Math.round(share * PAGES);
		for (const row of ROWS) {
			let out;
			if (row === 'uniform') out = { checks: uniform(pages, budget) };
			else if (row === 'nutch') out = { checks: nutch(pages, budget) };
			else if (row === 'oracle') out = { checks: oracle(pages, budget) };
			else if (row === 'model') out = { checks: await model(pages, budget) };
			else if (row === 'revisit') out = await revisit(pages, budget, undefined);
			else if (row === 'revisit+lastmod-true') out = await revisit(pages, budget, 'true');
			else if (row === 'revisit+lastmod-lie') out = await revisit(pages, budget, 'lie');
			else throw new Error(`unknown row ${row}`);
			const value = freshness(pages, out.checks, from, DAYS);
			// Each check, and whether it found a change (the version differs from the page's check before).
			const counts = { checks: 0, found: 0, windowChecks: 0, windowFound: 0 };
			out.checks.forEach((days, i) =>
				days.forEach((d, k) => {
					const hit = k > 0 && versionAt(pages[i], d) !== versionAt(pages[i], days[k - 1]);
					counts.checks++;
					if (hit) counts.found++;
					if (d >= from) {
						counts.windowChecks++;
						if (hit) counts.windowFound++;
					}
				}),
			);
			const overhead = counts.windowChecks / counts.windowFound - 1;
			const overChanged = counts.windowChecks / changedBetweenRuns - 1;
			const result = {
				seed,
				share,
				budget,
				runsPerDay: RUNS,
				row,
				freshness: Number(value.toFixed(3)),
				...counts,
				changedBetweenRuns,
				overhead: Number(overhead.toFixed(4)),
				overChanged: Number(overChanged.toFixed(4)),
				overBudget: out.overBudget ?? 0,
				seconds: out.seconds,
				...(out.sent === undefined ? {} : { sent: out.sent, failedRuns: out.failedRuns, exits: out.exits }),
			};
			if (result.overBudget > 0) failed = true;
			results.push({ ...result, ...(out.perRun ? { perRun: out.perRun } : {}), ...(out.trust ? { trust: out.trust } : {}) });
			console.error(JSON.stringify(result));
			const cli = row.startsWith('revisit');
			console.log(
				`| ${seed} | ${Math.round(share * 100)}% (${budget}) | ${row} | ${result.freshness.toFixed(3)} | ${result.checks} | ${result.found} | ` +
					`${result.windowChecks} | ${result.windowFound} | ${pct(result.overhead)} | ${pct(result.overChanged)} | ${cli ? result.sent : '-'} | ` +
					`${cli ? result.overBudget : '-'} | ${cli ? `${result.failedRuns} (${result.exits.join(', ')})` : '-'} |`,
			);
		}
	}
}

const at = (row, seed, share) => results.find((r) => r.row === row && r.seed === seed && r.share === share);
for (const seed of SEEDS) {
	const ten = SHARES[0];
	const [mine, oracle, nutch] = ['revisit', 'oracle', 'nutch'].map((row) => at(row, seed, ten));
	if (mine && oracle) {
		const ok =
			mine.freshness >= oracle.freshness - 0.02 && (nutch === undefined || mine.freshness > nutch.freshness) && mine.failedRuns === 0 && mine.overBudget === 0;
		if (!ok) failed = true;
		console.log(
			`\nTarget, seed ${seed}, at ${Math.round(ten * 100)}%: revisit ${mine.freshness} >= oracle ${oracle.freshness} - 0.02 and > nutch ` +
				`${nutch?.freshness}, ${mine.failedRuns} failed runs, ${mine.overBudget} over budget: ${ok ? 'met' : 'MISSED'}`,
		);
	}
	for (const r of results.filter((r) => r.seed === seed && r.row === 'revisit+lastmod-true' && r.share === 1)) {
		const ok = r.freshness >= 0.95 && r.overChanged <= 0.05;
		console.log(
			`\nTarget with an accurate lastmod, no budget, seed ${seed}: freshness ${r.freshness} >= 0.95 at checks <= changed + 5% in the window ` +
				`(${pct(r.overChanged)}; over the checks that found a change ${pct(r.overhead)}): ${ok ? 'met' : 'MISSED'}`,
		);
	}
}
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
process.exitCode = failed ? 1 : 0;
