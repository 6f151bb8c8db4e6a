// Freshness under a request budget: `node bench/freshness.js` (after `npm run build`).
//
// Pages change as Poisson processes in simulated time, on a web-like mix: half about
// twice a year, 30% about weekly, 20% about daily, each rate spread x/÷3 (log-uniform).
// Change times are drawn once (seeded) and shared by every row. One run a simulated day
// checks a share of the pages (10%, 20%). Freshness is the time-averaged share of pages
// whose last check came after their last change, counted over the second half of the days.
//
// Rows:
//   uniform   round-robin over the pages, the budget's worth a day (simulated, no CLI)
//   nutch     Nutch-style adaptive: interval x1.4 when unchanged, x0.8 when changed,
//             within 1..90 days, starting at 1 day; each day the most overdue pages first,
//             up to the budget (simulated, no CLI)
//   oracle    the true rates: each day the pages with the highest psi(rate, days since
//             checked), the index whose common threshold gives Cho and Garcia-Molina's
//             optimal allocation (simulated, no CLI)
//   model     revisit's own estimator and pick (dist/schedule/), simulated without the CLI
//   revisit   the real CLI, once a simulated day: `revisit sweep --budget B --now T`
//             with every URL on stdin, against a local origin (127.0.0.1, ephemeral port)
//             that serves each page's version at the simulated time the bench passes to
//             --now (the bench sets it before each run; the server reads it from there).
//             Which URLs were checked is what the origin saw requested.
//   revisit+lastmod-true / revisit+lastmod-lie: the same through a pipeline file (`revisit
//             run`, its due stage's budget and now), the URLs read
//             from the origin's sitemap.xml whose <lastmod> is each page's last change, or
//             always 2000-01-01 ("long ago").
//
// Options: --pages N (2000), --days N (120), --shares 0.1,0.2, --seed N (1),
// --rows uniform,nutch,oracle,revisit (default; also model, revisit+lastmod-true,
// revisit+lastmod-lie; a share of 1 is no budget at all),
// --args "..." (extra sweep flags for the revisit rows), --json FILE.
// Prints a markdown table, and checks the targets at 10%. Exit 1 if a run checked
// more URLs than its budget.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
const SEED = Number(flag('seed', 1));
const ROWS = String(flag('rows', 'uniform,nutch,oracle,revisit')).split(',');
const EXTRA = String(flag('args', '')).split(' ').filter(Boolean);
const JSON_OUT = flag('json', undefined);

// Seeded PRNG (mulberry32).
function prng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** True rates (per day) and change times (days) of every page. */
function makePages() {
	const random = prng(SEED);
	const pages = [];
	for (let i = 0; i < PAGES; i++) {
		const u = random();
		const base = u < 0.5 ? 2 / 365 : u < 0.8 ? 1 / 7 : 1;
		const rate = base * 3 ** (2 * random() - 1);
		const changes = [];
		for (let t = -Math.log(1 - random()) / rate; t < DAYS; t += -Math.log(1 - random()) / rate) changes.push(t);
		pages.push({ rate, changes });
	}
	return pages;
}

/** Versions of a page at simulated day t: changes at or before t. */
const versionAt = (page, t) => {
	let lo = 0;
	let hi = page.changes.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (page.changes[mid] <= t) lo = mid + 1;
		else hi = mid;
	}
	return lo;
};
const lastChangeAt = (page, t) => {
	const v = versionAt(page, t);
	return v === 0 ? -Infinity : page.changes[v - 1];
};

/** Time-averaged share of fresh pages over [from, to], given each page's sorted check days. */
function freshness(pages, checks, from, to) {
	let fresh = 0;
	pages.forEach((page, i) => {
		const days = checks[i];
		for (let k = 0; k < days.length; k++) {
			const start = Math.max(days[k], from);
			const end = Math.min(k + 1 < days.length ? days[k + 1] : to, to);
			if (end <= start) continue;
			// Fresh from the check until the first change after it.
			const v = versionAt(page, days[k]);
			const next = v < page.changes.length ? page.changes[v] : Infinity;
			fresh += Math.max(0, Math.min(end, next) - start);
		}
	});
	return fresh / (pages.length * (to - from));
}

const psi = (rate, tau) => {
	const x = rate * tau;
	return x < 1e-9 ? (rate * tau * tau) / 2 : (-Math.expm1(-x)) / rate - tau * Math.exp(-x);
};

/** A simulated policy: each day `choose(day)` returns page indices to check. */
function simulate(pages, budget, choose) {
	const checks = pages.map(() => []);
	for (let day = 0; day < DAYS; day++) {
		for (const i of choose(day, checks)) checks[i].push(day);
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
	return simulate(pages, budget, (day, checks) => {
		const scored = pages.map((page, i) => {
			const last = checks[i].at(-1);
			return [i, last === undefined ? Infinity : psi(page.rate, day - last)];
		});
		scored.sort((a, b) => (a[1] === b[1] ? a[0] - b[0] : b[1] - a[1]));
		return scored.slice(0, budget).map(([i]) => i);
	});
}

/** revisit's own estimator and pick (dist/schedule/), simulated without the CLI: for quick tuning. */
async function model(pages, budget) {
	const { addCheck, estimateRate } = await import(path.join(ROOT, 'dist/schedule/rate.js'));
	const { candidateOf, pick } = await import(path.join(ROOT, 'dist/schedule/pick.js'));
	const records = pages.map(() => null);
	return simulate(pages, budget, (day) => {
		const now = BASE + day * DAY;
		const chosen = pick(records.map((record) => candidateOf(record, 'o', {}, now)), { budget });
		const out = [];
		chosen.forEach((taken, i) => {
			if (!taken) return;
			out.push(i);
			const version = versionAt(pages[i], day);
			const record = records[i];
			const checks = record ? addCheck(record.checks, now - record.lastChecked, version !== record.version) : [];
			records[i] = { v: 1, status: 200, lastChecked: now, version, checks, rate: estimateRate(checks) };
		});
		return out;
	});
}

/** The real CLI, once a simulated day, against an origin in this process. */
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
	const started = Date.now();
	try {
		for (let day = 0; day < DAYS; day++) {
			simDay = day;
			requested = new Set();
			const common = { budget, verifyEvery: 'off', audit: 0, robots: 'ignore', concurrency: 16, perHost: 16, maxChurn: 0 };
			let args;
			if (lastmod) {
				// A sitemap is a pipeline file's source: the same settings, as stage options.
				const file = path.join(store, 'pipeline.json');
				fs.writeFileSync(file, JSON.stringify({
					store: path.join(store, 's'),
					source: { type: 'sitemap', url: `${origin}/sitemap.xml` },
					stages: [{ use: 'due', budget, now: BASE + day * DAY }, { use: 'probe', audit: common.audit, verifyEvery: common.verifyEvery, robots: common.robots, concurrency: common.concurrency, perHost: common.perHost }, { use: 'churn-guard', maxChurn: 0 }],
					sinks: [{ type: 'stdout' }],
				}));
				args = [BIN, 'run', file, '-q'];
			} else {
				args = [BIN, 'sweep', '--store', path.join(store, 's'), '-q', '--budget', String(budget), '--now', String(BASE + day * DAY), '--verify-every', 'off', '--audit', '0', '--robots', 'ignore', '--concurrency', '16', '--per-host', '16', '--max-churn', '0', ...EXTRA];
			}
			await new Promise((resolve, reject) => {
				const child = spawn(process.execPath, args, { stdio: [lastmod ? 'ignore' : 'pipe', 'ignore', 'inherit'] });
				const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
				child.on('error', reject);
				child.on('exit', (code) => {
					clearTimeout(timer);
					if (code !== 0 && code !== 1) reject(new Error(`revisit exited ${code} on day ${day}`));
					else resolve();
				});
				if (!lastmod) child.stdin.end(urls);
			});
			if (requested.size > budget) overBudget++;
			requests += requested.size;
			for (const i of requested) checks[i].push(day);
		}
	} finally {
		server.close();
		fs.rmSync(store, { recursive: true, force: true });
	}
	return { checks, overBudget, requests, seconds: Math.round((Date.now() - started) / 1000) };
}

const pages = makePages();
const from = DAYS / 2;
const changedInCounted = pages.reduce((sum, page) => sum + page.changes.filter((t) => t >= 0).length, 0);
const results = [];
let failed = false;
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
		const checked = out.checks.reduce((sum, days) => sum + days.length, 0);
		// Checks that found a change: what an oracle of change times would have spent at most.
		const found = out.checks.reduce((sum, days, i) => sum + days.filter((d, k) => k > 0 && versionAt(pages[i], d) !== versionAt(pages[i], days[k - 1])).length, 0);
		const result = { share, budget, row, freshness: Number(value.toFixed(3)), checks: checked, changedFound: found, overBudget: out.overBudget ?? 0, seconds: out.seconds };
		if (result.overBudget > 0) failed = true;
		results.push(result);
		console.error(JSON.stringify(result));
	}
}

console.log(`${PAGES} pages, ${DAYS} simulated days (freshness over days ${from}..${DAYS}), seed ${SEED}, ${changedInCounted} changes in all\n`);
console.log('| share a day | policy | freshness | checks | of which found a change | runs over budget |');
console.log('|---|---|---|---|---|---|');
for (const r of results) console.log(`| ${Math.round(r.share * 100)}% (${r.budget}) | ${r.row} | ${r.freshness.toFixed(3)} | ${r.checks} | ${r.changedFound} | ${r.row.startsWith('revisit') ? r.overBudget : '-'} |`);
const at = (row, share) => results.find((r) => r.row === row && r.share === share)?.freshness;
const ten = SHARES[0];
if (at('revisit', ten) !== undefined && at('oracle', ten) !== undefined) {
	const ok = at('revisit', ten) >= at('oracle', ten) - 0.02 && (at('nutch', ten) === undefined || at('revisit', ten) > at('nutch', ten));
	console.log(`\nTarget at ${Math.round(ten * 100)}%: revisit ${at('revisit', ten)} >= oracle ${at('oracle', ten)} - 0.02 and > nutch ${at('nutch', ten)}: ${ok ? 'met' : 'MISSED'}`);
}
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
process.exitCode = failed ? 1 : 0;
