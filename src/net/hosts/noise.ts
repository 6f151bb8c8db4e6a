import { createHash } from 'node:crypto';
import type { HostNoise, HostRecord, LearnedNoise, UrlRecord } from '../../store/model/types.js';

/** Pages of one template that must learn a place before it applies to all the host's pages of that template. */
export const HOST_PAGES = 3;
/** At most this many places are kept per host: those that apply first, then the newest. */
export const MAX_HOST_NOISE = 100;
/** At most this many places are kept per page (newest kept); a page that differs in more places teaches nothing. */
export const MAX_PAGE_NOISE = 40;

/**
 * A URL's template: its path with every segment that holds a digit, and the last one,
 * as `*`, and its query's names without their values. Pages of one template are taken to
 * share one page layout, so a place noisy on several of them is noise on the others.
 *
 * @example
 * templateOf('https://shop.example/product/17?ref=mail') // '/product/*?ref'
 */
export function templateOf(url: string): string {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return '';
	}
	const segments = parsed.pathname.split('/');
	const path = segments.map((segment, i) => (segment !== '' && (/\d/.test(segment) || i === segments.length - 1) ? '*' : segment)).join('/');
	const names = [...new Set(parsed.searchParams.keys())].sort();
	return names.length > 0 ? `${path}?${names.join('&')}` : path;
}

const pageId = (url: string): string => createHash('sha1').update(url).digest('hex').slice(0, 8);

/** Where a place the page's hash leaves out was learned: on the page itself, or on other pages of its host. */
export interface NoiseEntry extends LearnedNoise {
	where: 'page' | 'host';
}

/**
 * The noise that applies to a page: what it learned itself, and what its host learned on
 * enough pages of the same template, each with the time from which it applies.
 *
 * @example
 * noiseOf(record, book.get(origin).noise, url).map((entry) => entry.at)
 */
export function noiseOf(record: Pick<UrlRecord, 'learned'> | undefined, host: readonly HostNoise[] | undefined, url: string): NoiseEntry[] {
	const entries = new Map<string, NoiseEntry>();
	for (const entry of record?.learned ?? []) entries.set(entry.at, { ...entry, where: 'page' });
	if (host !== undefined && host.length > 0) {
		const template = templateOf(url);
		for (const entry of host) {
			if (entry.applies === undefined || entry.template !== template) continue;
			const known = entries.get(entry.at);
			if (known === undefined || known.since > entry.applies) entries.set(entry.at, { at: entry.at, since: entry.applies, where: 'host' });
		}
	}
	return [...entries.values()];
}

/** The places of `entries` that applied at `time`, in a stable order. */
export const placesAt = (entries: readonly NoiseEntry[], time: number): string[] =>
	entries
		.filter((entry) => entry.since <= time)
		.map((entry) => entry.at)
		.sort();

/**
 * The host with the places one page just learned counted towards its template: a place
 * learned on HOST_PAGES pages applies to the template's pages from `now` on. Bounded:
 * MAX_HOST_NOISE places, those that apply kept first.
 *
 * @example
 * book.set(origin, hostLearned(book.get(origin), url, ['html:body>aside.ad'], Date.now()));
 */
export function hostLearned(host: HostRecord, url: string, places: readonly string[], now: number): HostRecord {
	if (places.length === 0) return host;
	const template = templateOf(url);
	const id = pageId(url);
	const noise = [...(host.noise ?? [])];
	for (const at of places) {
		const i = noise.findIndex((entry) => entry.template === template && entry.at === at);
		const entry: HostNoise = i >= 0 ? { ...noise[i]!, pages: [...noise[i]!.pages] } : { template, at, pages: [], since: now };
		if (entry.pages.length < HOST_PAGES && !entry.pages.includes(id)) entry.pages.push(id);
		if (entry.applies === undefined && entry.pages.length >= HOST_PAGES) entry.applies = now;
		if (i >= 0) noise[i] = entry;
		else noise.push(entry);
	}
	if (noise.length > MAX_HOST_NOISE) {
		// Keep what applies, then the newest candidates.
		const ranked = noise
			.map((entry, i) => ({ entry, i }))
			.sort((a, b) => Number(b.entry.applies !== undefined) - Number(a.entry.applies !== undefined) || b.entry.since - a.entry.since || b.i - a.i);
		const kept = new Set(ranked.slice(0, MAX_HOST_NOISE).map(({ entry }) => entry));
		return { ...host, noise: noise.filter((entry) => kept.has(entry)) };
	}
	return { ...host, noise };
}

/**
 * A page's own learned places with `places` added at `now`, bounded to MAX_PAGE_NOISE
 * (the newest kept).
 *
 * @example
 * next.learned = pageLearned(record?.learned, ['html:body>p.when'], Date.now());
 */
export function pageLearned(learned: readonly LearnedNoise[] | undefined, places: readonly string[], now: number): LearnedNoise[] {
	const known = new Set((learned ?? []).map((entry) => entry.at));
	const added = places.filter((at) => !known.has(at)).map((at) => ({ at, since: now }));
	return [...(learned ?? []), ...added].slice(-MAX_PAGE_NOISE);
}
