// The policies bench/watch-model.js and bench/watch.js compare, simulated in process on
// the pages of bench/lib/web-mix.js (times in days): the watch policy (revisit's own
// estimator, due-time rule and threshold from dist/, with a feedback controller), the
// same with the true rates (oracle), uniform checking, a best once-a-day batch, and the
// analytic continuous optimum.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { psi, versionAt } from './web-mix.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DAY_MS = 86_400_000;
const HOUR = 1 / 24;

const { addCheck, estimateRate, RATE_PRIOR } = await import(path.join(ROOT, 'dist/domain/schedule/rate.js'));
const { intervalFor, watchInterval, WATCH_INTERVALS, freshnessAt } = await import(path.join(ROOT, 'dist/domain/schedule/due-time.js'));
const { solveThreshold } = await import(path.join(ROOT, 'dist/domain/schedule/threshold.js'));
const { rateBin, RATE_BINS } = await import(path.join(ROOT, 'dist/store/model/due.js'));
const { AHEAD_SHARE } = await import(path.join(ROOT, 'dist/watch/reschedule.js'));
const { builtInSweepDefaults } = await import(path.join(ROOT, 'dist/config/defaults.js'));

/** The interval bounds `revisit watch` runs with by default (--min-interval 1h, --max-interval 30d). */
export const CLI_INTERVALS = { ...WATCH_INTERVALS, minMs: builtInSweepDefaults.minIntervalMs, maxMs: builtInSweepDefaults.maxIntervalMs };
export { AHEAD_SHARE };

export { RATE_PRIOR, WATCH_INTERVALS };

/** A binary min-heap of page indices ordered by `key[i]`, ties by index. */
class Heap {
	constructor(key) {
		this.key = key;
		this.items = [];
	}
	less(a, b) {
		return this.key[a] < this.key[b] || (this.key[a] === this.key[b] && a < b);
	}
	push(i) {
		const items = this.items;
		items.push(i);
		let k = items.length - 1;
		while (k > 0) {
			const parent = (k - 1) >> 1;
			if (!this.less(items[k], items[parent])) break;
			[items[k], items[parent]] = [items[parent], items[k]];
			k = parent;
		}
	}
	peek() {
		return this.items[0];
	}
	pop() {
		const items = this.items;
		const top = items[0];
		const last = items.pop();
		if (items.length > 0) {
			items[0] = last;
			let k = 0;
			for (;;) {
				const l = 2 * k + 1;
				const r = l + 1;
				let m = k;
				if (l < items.length && this.less(items[l], items[m])) m = l;
				if (r < items.length && this.less(items[r], items[m])) m = r;
				if (m === k) break;
				[items[k], items[m]] = [items[m], items[k]];
				k = m;
			}
		}
		return top;
	}
}

/**
 * The feedback on μ: every simulated hour, μ = solveThreshold(histogram, B·N) × f. The
 * controller watches the queue's position P, in hours of checks at the rate: the backlog
 * (URLs due and not checked) over the checks an hour, or, when nothing is due, minus the
 * share of the last hour the dispatcher waited for a URL to fall due (dispatch 'due'), or
 * minus how early the last hour's checks went on average, in hours, at most 1 ('ahead'). Then
 *   log f += clamp(ki · (P − targetHours) + kp · (P − P an hour before), ±step)
 * (integral and proportional on the position; f within [1/limit, limit]): f rises while
 * a backlog stands or grows, and falls while nothing is due.
 */
export const CONTROLLER = { kind: 'pi', ki: 0.02, kp: 0.2, targetHours: 1, step: 0.1, limit: 64 };

/**
 * src/watch/threshold.ts's controller (kind 'lead'), every `updateHours` of the schedule's
 * clock (the watch updates every 2 s of wall time: 2 s × --time-scale): the correction
 * × `factor` when the backlog is over `slack`, ÷ `factor` when nothing is due and under
 * 90% of the checks the rate allows were sent since the update before; within
 * [1/limit, limit]. μ0 is solved at most hourly in the model.
 */
export const LEAD_CONTROLLER = { kind: 'lead', updateHours: 2 / 3600, factor: 1.05, slack: 10, limit: 8 };

/**
 * The watch policy on `pages` at `perPageDay` checks per page per day, for `days` days.
 * With `oracle`, the true rates and no learning (checks as if known). `dispatch`:
 * 'ahead' (every slot checks the URL due earliest, due or not) or 'due' (only URLs
 * due by then, as DueQueue.claim; the slot is lost otherwise). Returns each
 * page's check times, and an hourly trace of μ, f, the backlog and the checks.
 */
export function simulateWatch(pages, perPageDay, days, options = {}) {
	const bounds = options.bounds ?? WATCH_INTERVALS;
	const prior = options.prior ?? RATE_PRIOR;
	const controller = options.controller?.kind === 'lead' ? { ...LEAD_CONTROLLER, ...options.controller } : { ...CONTROLLER, ...options.controller };
	const lead = controller.kind === 'lead';
	const oracle = options.oracle === true;
	const n = pages.length;
	const perDay = perPageDay * n;
	const slot = 1 / perDay;
	const capacity = perDay * HOUR;
	const ahead = options.dispatch !== 'due';
	// solveThreshold on an unchanged histogram (the oracle's) is solved once.
	let solved = { key: '', mu: 0 };
	const solve = (counts) => {
		const key = counts.join(',');
		if (key !== solved.key) solved = { key, mu: solveThreshold(counts, perDay, bounds) };
		return solved.mu;
	};
	const due = new Float64Array(n); // all due at 0
	// How far into its interval a URL must be before a free slot may pull it ahead (the CLI: reschedule.ts).
	const aheadShare = options.aheadShare ?? AHEAD_SHARE;
	const notBefore = new Float64Array(n);
	let unspent = 0;
	const last = new Float64Array(n).fill(NaN);
	const seen = new Int32Array(n);
	const rate = new Float64Array(n);
	const histories = pages.map(() => []);
	const checks = pages.map(() => []);
	const bins = new Array(RATE_BINS).fill(0);
	for (let i = 0; i < n; i++) {
		rate[i] = oracle ? pages[i].rate : estimateRate([], prior);
		bins[rateBin(rate[i])]++;
	}
	const heap = new Heap(due);
	for (let i = 0; i < n; i++) heap.push(i);
	let logF = 0;
	let mu = 0;
	let nextFree = 0;
	let nextTick = 0;
	let idle = 0;
	let early = 0;
	let checkedInHour = 0;
	const trace = [];
	let positionBefore = 0;
	const tick = (t) => {
		let backlog = 0;
		for (let i = 0; i < n; i++) if (due[i] <= t) backlog++;
		// Nothing due: the share of the last hour the dispatcher waited (due), or how early its checks went, in hours, at most 1 (ahead).
		const position = backlog > 0 ? backlog / capacity : -Math.min(1, ahead ? unspent / capacity + early / Math.max(1, checkedInHour) / HOUR : idle / HOUR);
		if (t > 0 && !lead) {
			const step = controller.ki * (position - controller.targetHours) + controller.kp * (position - positionBefore);
			logF = Math.max(-Math.log(controller.limit), Math.min(Math.log(controller.limit), logF + Math.max(-controller.step, Math.min(controller.step, step))));
		}
		if (t > 0) trace.push({ t, mu, f: Math.exp(logF), backlog, position, checked: checkedInHour, idle });
		positionBefore = position;
		const mu0 = options.fixedMu ?? solve(bins);
		mu = mu0 * (options.fixedMu === undefined ? Math.exp(logF) : 1);
		checkedInHour = 0;
		unspent = 0;
		idle = 0;
		early = 0;
	};
	// The lead's controller: is the backlog over `slack`? (a walk of the heap's top, at most slack + 1 nodes)
	const over = (t, limit) => {
		let count = 0;
		const stack = [0];
		while (stack.length > 0 && count <= limit) {
			const k = stack.pop();
			if (k >= heap.items.length || due[heap.items[k]] > t) continue;
			count++;
			stack.push(2 * k + 1, 2 * k + 2);
		}
		return count > limit;
	};
	let nextUpdate = 0;
	let sentSince = 0;
	const leadUpdate = (t) => {
		const expected = perDay * controller.updateHours * HOUR;
		if (over(t, controller.slack)) logF = Math.min(Math.log(controller.limit), logF + Math.log(controller.factor));
		else if (due[heap.peek()] > t && sentSince < 0.9 * expected) logF = Math.max(-Math.log(controller.limit), logF - Math.log(controller.factor));
		sentSince = 0;
		mu = solved.mu * Math.exp(logF);
	};
	for (;;) {
		let i = heap.peek();
		// ahead: every slot is used, by the URL due earliest even if not yet due; due: only URLs due by then (DueQueue.claim).
		const at = ahead ? nextFree : Math.max(nextFree, due[i]);
		for (;;) {
			const next = lead ? Math.min(nextTick, nextUpdate) : nextTick;
			if (next > at || next >= days) break;
			if (next === nextTick) {
				tick(nextTick);
				nextTick += HOUR;
			}
			if (lead && next === nextUpdate) {
				leadUpdate(nextUpdate);
				nextUpdate += controller.updateHours * HOUR;
			}
		}
		if (at >= days) break;
		// Pulled ahead only once its notBefore has passed (reschedule.ts): the URL due earliest among those.
		const skipped = [];
		while (ahead && heap.items.length > 0 && due[heap.peek()] > at && notBefore[heap.peek()] > at) skipped.push(heap.pop());
		if (heap.items.length === 0 || (due[heap.peek()] > at + 1e-12 && notBefore[heap.peek()] > at)) {
			for (const k of skipped) heap.push(k);
			nextFree = at + slot;
			unspent++;
			continue;
		}
		i = heap.pop();
		for (const k of skipped) heap.push(k);
		if (!ahead && due[i] > nextFree) idle += due[i] - nextFree;
		if (ahead && due[i] > at) early += due[i] - at;
		nextFree = at + slot;
		checkedInHour++;
		sentSince++;
		const version = versionAt(pages[i], at);
		if (!Number.isNaN(last[i])) {
			histories[i] = addCheck(histories[i], (at - last[i]) * DAY_MS, version !== seen[i]);
			if (!oracle) {
				bins[rateBin(rate[i])]--;
				rate[i] = estimateRate(histories[i], prior);
				bins[rateBin(rate[i])]++;
			}
		}
		last[i] = at;
		seen[i] = version;
		checks[i].push(at);
		const observed = oracle ? 40 : histories[i].length;
		const interval = watchInterval(rate[i], mu, observed, bounds) / DAY_MS;
		due[i] = at + interval;
		notBefore[i] = at + Math.max(bounds.minMs / DAY_MS, aheadShare * interval);
		heap.push(i);
	}
	return { checks, trace, rates: rate };
}

/** Every page every 1/perPageDay days, the checks evenly spaced (round robin). */
export function uniformChecks(pages, perPageDay, days) {
	const n = pages.length;
	return pages.map((_, i) => {
		const out = [];
		for (let t = i / (n * perPageDay); t < days; t += 1 / perPageDay) out.push(t);
		return out;
	});
}

/**
 * One run a day (at whole days), each checking min(perPageDay, 1) · N pages, those
 * with the highest ψ by their true rates: the best allocation a once-a-day batch can
 * make (Cho and Garcia-Molina's, capped at a check a day).
 */
export function batchChecks(pages, perPageDay, days) {
	const budget = Math.round(Math.min(1, perPageDay) * pages.length);
	const checks = pages.map(() => []);
	for (let t = 0; t < days; t++) {
		const scored = pages.map((page, i) => [i, checks[i].length === 0 ? Infinity : psi(page.rate, t - checks[i].at(-1))]);
		scored.sort((a, b) => (a[1] === b[1] ? a[0] - b[0] : b[1] - a[1]));
		for (const [i] of scored.slice(0, budget)) checks[i].push(t);
	}
	return checks;
}

/**
 * The continuous optimum with the true rates, analytic (no simulation): each page
 * checked every I(λ, μ) days, with μ such that the checks a day are perPageDay · N;
 * `bounds` (ms) caps the intervals as the watch does, or none. Returns the freshness.
 */
export function optimum(pages, perPageDay, bounds) {
	const lo = bounds ? bounds.minMs / DAY_MS : 0;
	const hi = bounds ? bounds.maxMs / DAY_MS : Infinity;
	const intervalOf = (rate, mu) => Math.max(lo, Math.min(hi, intervalFor(rate, mu)));
	const spent = (mu) => pages.reduce((sum, page) => sum + 1 / intervalOf(page.rate, mu), 0);
	let low = Math.log(1e-9);
	let high = Math.log(1e5);
	for (let k = 0; k < 60; k++) {
		const mid = (low + high) / 2;
		if (spent(Math.exp(mid)) > perPageDay * pages.length) low = mid;
		else high = mid;
	}
	const mu = Math.exp((low + high) / 2);
	return pages.reduce((sum, page) => sum + freshnessAt(page.rate, intervalOf(page.rate, mu)), 0) / pages.length;
}
