// The freshness of `revisit watch`'s policy, simulated in process (no HTTP, no store):
// `node bench/watch-model.js` (after `npm run build`; it imports dist/).
//
// Pages change as Poisson processes on a web-like mix (bench/lib/web-mix.js: half about
// twice a year, 30% about weekly, 20% about daily, each rate spread x/÷3; --mix, --seeds).
// A dispatcher sends checks at B·N a day (B = --checks-per-page-day), evenly spaced (at
// most one every 1/(B·N) days), each to the URL due earliest, when one is due. After each
// check the URL's history takes the check (addCheck), its rate is estimated
// (estimateRate, the Gamma prior), and it is next due at now + watchInterval(rate, μ,
// checks, WATCH_INTERVALS). Every simulated hour μ is solved over the histogram of the
// current estimates (solveThreshold, rateBin) and multiplied by a feedback factor f
// (bench/lib/watch-policy.js: CONTROLLER). Every URL is new and due at 0.
//
// Rows (same pages, same change times):
//   watch     the policy above
//   oracle    the same policy with the true rates (and no learning intervals)
//   uniform   every page every 1/B days, the checks evenly spaced
//   batch     one run a day, min(B, 1)·N pages by ψ on the true rates: the best a
//             once-a-day batch can do
//   optimum   analytic, no simulation: each page every I(λ, μ) days on the true rates,
//             uncapped (Cho's continuous optimum), and within WATCH_INTERVALS' bounds
// Freshness is time-averaged over each --windows from:to (days; default 30:90,60:120).
// --find F bisects B in [1, 2] for freshness F (first window) for the --find-rows
// (default watch,oracle), simulating only to the end of the first window.
//
// --dispatch ahead (default: every slot is used, by the URL due earliest, due or not) or
// due (only URLs due by then, as DueQueue.claim does; a slot with none due is lost).
// --controller pi (default; --ki, --kp, --step, --limit, --target-hours) or lead (src/watch/
// threshold.ts's: --update-hours, --factor, --slack, --limit; see bench/lib/watch-policy.js).
// --ahead-share S: how far into its interval a URL must be before a free slot may pull it
// ahead (default the CLI's, src/watch/reschedule.ts; 0: only --min-minutes after its check).
// Knobs, for tuning: --min-minutes,
// --max-days, --learn-hours (the interval bounds), --prior changes:days, --fixed-mu M (no
// solve, no feedback), --trace (μ, f and the backlog per simulated day), --json FILE.
import fs from 'node:fs';
import { batchChecks, CONTROLLER, LEAD_CONTROLLER, optimum, RATE_PRIOR, simulateWatch, uniformChecks, WATCH_INTERVALS } from './lib/watch-policy.js';
import { byKind, checksPerPageDay, DEFAULT_MIX, freshness, makePages, parseMix } from './lib/web-mix.js';

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
	const i = argv.indexOf(`--${name}`);
	return i === -1 ? fallback : argv[i + 1];
};
const has = (name) => argv.includes(`--${name}`);
const PAGES = Number(flag('pages', 2000));
const DAYS = Number(flag('days', 120));
const SEEDS = String(flag('seeds', flag('seed', '1,2,3')))
	.split(',')
	.map(Number);
const MIX = parseMix(flag('mix', DEFAULT_MIX));
const BS = String(flag('checks-per-page-day', '1')).split(',').map(Number);
const ROWS = String(flag('rows', 'watch,oracle,uniform,batch,optimum')).split(',');
const WINDOWS = String(flag('windows', '30:90,60:120'))
	.split(',')
	.map((w) => w.split(':').map(Number))
	.filter(([, to]) => to <= DAYS);
const FIND = flag('find', undefined);
const JSON_OUT = flag('json', undefined);
const HOUR_MS = 3_600_000;
const bounds = {
	minMs: flag('min-minutes') === undefined ? WATCH_INTERVALS.minMs : Number(flag('min-minutes')) * 60_000,
	maxMs: flag('max-days') === undefined ? WATCH_INTERVALS.maxMs : Number(flag('max-days')) * 24 * HOUR_MS,
	learnMs: flag('learn-hours') === undefined ? WATCH_INTERVALS.learnMs : Number(flag('learn-hours')) * HOUR_MS,
};
const prior = flag('prior') === undefined ? RATE_PRIOR : { changes: Number(flag('prior').split(':')[0]), days: Number(flag('prior').split(':')[1]) };
const controller = {
	...(flag('controller') === 'lead' ? LEAD_CONTROLLER : CONTROLLER),
	...Object.fromEntries(
		['ki', 'kp', 'step', 'limit', 'update-hours', 'factor', 'slack'].flatMap((name) =>
			flag(name) === undefined ? [] : [[name.replace(/-(\w)/g, (_, c) => c.toUpperCase()), Number(flag(name))]],
		),
	),
	...(flag('target-hours') === undefined ? {} : { targetHours: Number(flag('target-hours')) }),
};
const fixedMu = flag('fixed-mu') === undefined ? undefined : Number(flag('fixed-mu'));
const DISPATCH = flag('dispatch', 'ahead');
if (!['ahead', 'due'].includes(DISPATCH)) throw new Error('--dispatch takes ahead or due');
const options = {
	bounds,
	prior,
	controller,
	fixedMu,
	dispatch: DISPATCH,
	...(flag('ahead-share') === undefined ? {} : { aheadShare: Number(flag('ahead-share')) }),
};

/** Freshness and checks per page per day, overall and per mix kind, in each window. */
function measure(pages, checks) {
	return WINDOWS.map(([from, to]) => ({
		from,
		to,
		freshness: freshness(pages, checks, from, to),
		perPageDay: checksPerPageDay(checks, from, to),
		kinds: byKind(pages, checks, from, to, MIX),
	}));
}

function run(pages, row, B, days = DAYS) {
	if (row === 'watch') return simulateWatch(pages, B, days, options);
	if (row === 'oracle') return simulateWatch(pages, B, days, { ...options, oracle: true });
	if (row === 'uniform') return { checks: uniformChecks(pages, B, days) };
	if (row === 'batch') return { checks: batchChecks(pages, B, days) };
	throw new Error(`unknown row ${row}`);
}

/** The B (checks per page per day) at which `row` reaches freshness `goal` in the first window: bisection in [1, 2], to ±0.016. */
function findB(pages, row, goal) {
	let low = 1;
	let high = 2;
	for (let k = 0; k < 5; k++) {
		const mid = (low + high) / 2;
		const value = measure(pages, run(pages, row, mid, WINDOWS[0][1]).checks)[0].freshness;
		if (value < goal) low = mid;
		else high = mid;
	}
	return (low + high) / 2;
}

const f3 = (x) => x.toFixed(3);
const kindNames = MIX.map((kind) => `${Number(kind.rate.toPrecision(3))}/d`);
console.log(
	`${PAGES} pages on the mix ` +
		MIX.map((kind) => `${kind.share}:${Number(kind.rate.toPrecision(3))}/day`).join(', ') +
		`, ${DAYS} days, seeds ${SEEDS.join(', ')}; bounds ${bounds.minMs / 60_000} min to ${bounds.maxMs / 86_400_000} days, ` +
		`learning from ${bounds.learnMs / HOUR_MS} h; prior ${prior.changes} changes in ${prior.days} days; dispatch ${DISPATCH}; ` +
		`controller ${JSON.stringify(controller)}${fixedMu === undefined ? '' : `; fixed mu ${fixedMu}`}\n`,
);
const windowNames = WINDOWS.map(([from, to]) => `${from}-${to}`);
console.log(
	`| seed | B | row | ${windowNames.map((w) => `freshness ${w}`).join(' | ')} | checks/page/day ${windowNames[0]} | freshness by kind ${windowNames[0]} ` +
		`(${kindNames.join(', ')}) | checks/page/day by kind |`,
);
console.log(`|---|---|---|${windowNames.map(() => '---|').join('')}---|---|---|`);
const results = [];
for (const seed of SEEDS) {
	const pages = makePages(seed, PAGES, DAYS, MIX);
	for (const B of BS) {
		for (const row of ROWS) {
			if (row === 'optimum') {
				const result = { seed, B, row, uncapped: optimum(pages, B), bounded: optimum(pages, B, bounds) };
				results.push(result);
				console.log(
					`| ${seed} | ${B} | optimum (analytic) | uncapped ${f3(result.uncapped)}, within the bounds ${f3(result.bounded)} |${windowNames
						.slice(1)
						.map(() => ' |')
						.join('')} ${B} | | |`,
				);
				continue;
			}
			const started = Date.now();
			const out = run(pages, row, B);
			const windows = measure(pages, out.checks);
			const first = windows[0];
			const result = { seed, B, row, windows, seconds: (Date.now() - started) / 1000 };
			if (out.trace) {
				const inWindow = out.trace.filter((entry) => entry.t >= first.from && entry.t < first.to);
				result.meanF = Math.exp(inWindow.reduce((sum, entry) => sum + Math.log(entry.f), 0) / inWindow.length);
				result.meanBacklog = inWindow.reduce((sum, entry) => sum + entry.backlog, 0) / inWindow.length;
				result.idleShare = inWindow.reduce((sum, entry) => sum + entry.idle, 0) / (first.to - first.from);
				if (has('trace')) {
					for (const entry of out.trace.filter((_, k) => k % 24 === 23))
						console.error(
							`seed ${seed} B ${B} ${row} day ${entry.t.toFixed(0)}: mu ${entry.mu.toFixed(4)} f ${entry.f.toFixed(3)} backlog ${entry.backlog} ` +
								`position ${entry.position.toFixed(2)} h checked ${entry.checked}/h idle ${(entry.idle * 24).toFixed(2)}`,
						);
				}
			}
			results.push(result);
			console.error(JSON.stringify(result));
			console.log(
				`| ${seed} | ${B} | ${row} | ${windows.map((w) => f3(w.freshness)).join(' | ')} | ${first.perPageDay.toFixed(3)} | ` +
					`${first.kinds.map((k) => f3(k.freshness)).join(', ')} | ${first.kinds.map((k) => k.perPageDay.toFixed(3)).join(', ')} |`,
			);
		}
	}
	if (FIND !== undefined) {
		for (const row of String(flag('find-rows', 'watch,oracle')).split(',')) {
			const B = findB(pages, row, Number(FIND));
			results.push({ seed, row, find: Number(FIND), B });
			console.log(`| ${seed} | ${B.toFixed(3)} | ${row}: B for ${FIND} (bisection, ±0.016) | | | | | |`);
		}
	}
}
for (const seed of SEEDS) {
	const watch = results.find((r) => r.seed === seed && r.row === 'watch' && r.B === 1);
	if (watch)
		console.log(
			`\nseed ${seed}: watch at B=1, ${windowNames[0]}: ${f3(watch.windows[0].freshness)} (target >= 0.92: ` +
				`${watch.windows[0].freshness >= 0.92 ? 'met' : 'MISSED'}); mean f ${watch.meanF.toFixed(3)}, backlog ${watch.meanBacklog.toFixed(1)}, ` +
				`idle ${(100 * watch.idleShare).toFixed(1)}%`,
		);
	const found = results.find((r) => r.seed === seed && r.row === 'watch' && r.find !== undefined);
	if (found) console.log(`seed ${seed}: watch reaches ${found.find} at B=${found.B.toFixed(3)} (target <= 1.4: ${found.B <= 1.4 ? 'met' : 'MISSED'})`);
}
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
