// The simulated web of the freshness benches (bench/freshness.js, bench/watch-model.js,
// bench/watch.js): pages on a mix of change rates, each changing as a Poisson process,
// drawn from a seed, and the time-averaged freshness of a set of check times.
import { mulberry32 } from './prng.js';

/** The default mix: half about twice a year, 30% about weekly, 20% about daily. */
export const DEFAULT_MIX = '0.5:2/365,0.3:1/7,0.2:1';

/**
 * `--mix share:rate,...`: the shares of pages and their base rates (changes a day, or a/b).
 *
 * @example
 * parseMix('0.5:2/365,0.5:1') // [{ share: 0.5, rate: 0.00548 }, { share: 0.5, rate: 1 }]
 */
export function parseMix(text) {
	const mix = String(text)
		.split(',')
		.map((part) => {
			const [share, rate] = part.split(':');
			const [a, b = '1'] = String(rate).split('/');
			return { share: Number(share), rate: Number(a) / Number(b) };
		});
	if (mix.some((kind) => !(kind.share > 0 && kind.rate > 0)) || Math.abs(mix.reduce((sum, kind) => sum + kind.share, 0) - 1) > 1e-9) {
		throw new Error('--mix takes share:rate pairs whose shares add up to 1, e.g. 0.5:2/365,0.3:1/7,0.2:1');
	}
	return mix;
}

/**
 * True rates (per day) and change times (days, sorted, in [0, days)) of `count` pages
 * drawn from `seed` on `mix`, each base rate spread x/÷3 log-uniform; `kind` is the
 * page's entry in the mix.
 *
 * @example
 * makePages(1, 2000, 120, parseMix(DEFAULT_MIX))[0] // { rate: 0.0061, changes: [...] }
 */
export function makePages(seed, count, days, mix) {
	const random = mulberry32(seed);
	const pages = [];
	for (let i = 0; i < count; i++) {
		const u = random();
		let acc = 0;
		let kind = mix.findIndex((entry) => u < (acc += entry.share));
		if (kind === -1) kind = mix.length - 1;
		const rate = mix[kind].rate * 3 ** (2 * random() - 1);
		const changes = [];
		for (let t = -Math.log(1 - random()) / rate; t < days; t += -Math.log(1 - random()) / rate) changes.push(t);
		pages.push({ rate, changes, kind });
	}
	return pages;
}

/** A page's version at simulated day t: the number of its changes at or before t. */
export function versionAt(page, t) {
	let lo = 0;
	let hi = page.changes.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (page.changes[mid] <= t) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** The time of a page's last change at or before t; -Infinity when none. */
export function lastChangeAt(page, t) {
	const v = versionAt(page, t);
	return v === 0 ? -Infinity : page.changes[v - 1];
}

/**
 * Time-averaged share of fresh pages over [from, to], given each page's sorted check
 * days: a page is fresh from a check until its first change after that check.
 */
export function freshness(pages, checks, from, to) {
	let fresh = 0;
	pages.forEach((page, i) => {
		const days = checks[i];
		for (let k = 0; k < days.length; k++) {
			const start = Math.max(days[k], from);
			const end = Math.min(k + 1 < days.length ? days[k + 1] : to, to);
			if (end <= start) continue;
			const v = versionAt(page, days[k]);
			const next = v < page.changes.length ? page.changes[v] : Infinity;
			fresh += Math.max(0, Math.min(end, next) - start);
		}
	});
	return fresh / (pages.length * (to - from));
}

/**
 * What checking a page of rate λ is worth τ days after its last check (days of freshness),
 * ψ = (1 − e^(−λτ)) / λ − τ·e^(−λτ).
 */
export function psi(rate, tau) {
	const x = rate * tau;
	return x < 1e-9 ? (rate * tau * tau) / 2 : -Math.expm1(-x) / rate - tau * Math.exp(-x);
}

/** Checks per page per day within [from, to). */
export function checksPerPageDay(checks, from, to) {
	return checks.reduce((sum, days) => sum + days.filter((t) => t >= from && t < to).length, 0) / (checks.length * (to - from));
}

/** Freshness and checks per page per day within [from, to), for each kind of `mix` (the pages' `kind`). */
export function byKind(pages, checks, from, to, mix) {
	return mix.map((_, kind) => {
		const index = pages.flatMap((page, i) => (page.kind === kind ? [i] : []));
		const subChecks = index.map((i) => checks[i]);
		return {
			freshness: freshness(
				index.map((i) => pages[i]),
				subChecks,
				from,
				to,
			),
			perPageDay: checksPerPageDay(subChecks, from, to),
		};
	});
}
