import { loadReportPage, type PageCursor } from '../io/report/paged.js';
import { renderReport } from '../io/report/html.js';
import { loadUrlPage } from '../io/report/url-data.js';
import { renderUrlPage } from '../io/report/url-html.js';
import type { StoreReader } from '../store/model/types.js';
import { pacer } from './pace.js';
import { pageCache } from './page-cache.js';

/** Where the live report page reads from, and how much it shows. */
export interface LiveReportOptions {
	store: StoreReader;
	/** The store's name on the page. */
	source: string;
	/** Runs covered (the last; default 1). */
	runs?: number | undefined;
	/** Changes (and errors, and hosts) on one page (default 200). */
	limit?: number | undefined;
	/** How long a built page is served as it is, ms (default 5000). */
	maxAgeMs?: number | undefined;
	now?: (() => number) | undefined;
	/** Pages answered a second at most (default 10): the others wait their turn, up to 64 of them; more are answered 503. */
	perSecond?: number | undefined;
	/** Called as each page build starts (the metrics count them). */
	onBuild?: (() => void) | undefined;
}

/** An answer ready to send. */
export interface Answer {
	status: number;
	type: string;
	body: Buffer;
}

/** The live report: a page for a query string. */
export interface LiveReport {
	answer(search: URLSearchParams): Promise<Answer>;
	/** `GET /url?u=URL&a=N&b=M`: the URL's page, with versions a and b compared. */
	answerUrl(search: URLSearchParams): Promise<Answer>;
}

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
/** Pages kept at once: the newest and a few older ones being read. */
const KEPT_PAGES = 16;
/** Requests for a page that may wait their turn at once. */
const WAITING = 64;

const href = (cursor: PageCursor): string => `./?run=${cursor.run}&skip=${cursor.skip}`;

/** `?run=EPOCH_MS&skip=N` as a cursor; none for the newest page; a string saying what is wrong otherwise. */
function cursorOf(search: URLSearchParams): PageCursor | undefined | string {
	const run = search.get('run');
	const skip = search.get('skip');
	if (run === null && skip === null) return undefined;
	if (run === null || !/^\d{1,15}$/.test(run) || (skip !== null && !/^\d{1,9}$/.test(skip))) return 'a page is ?run=EPOCH_MS&skip=N, as the page links give it';
	return { run: Number(run), skip: skip === null ? 0 : Number(skip) };
}

/** `?u=URL&a=N&b=M` as a URL's page's scope; a string saying what is wrong otherwise. */
function urlPageOf(search: URLSearchParams): { url: string; a?: number; b?: number } | string {
	const url = search.get('u');
	const [a, b] = [search.get('a'), search.get('b')];
	if (url === null || url === '') return "a URL's page is ?u=URL (and &a=N&b=M for two of its versions), as the report links give it";
	if ((a === null) !== (b === null) || [a, b].some((n) => n !== null && !/^\d{1,9}$/.test(n))) return 'versions are &a=N&b=M, two numbers from the timeline';
	return a === null ? { url } : { url, a: Number(a), b: Number(b) };
}

/**
 * `GET /` of `revisit watch --listen`: the report page of the last runs, in pages of
 * `limit` changes (newest first, each page linking to the next older one), each page
 * built at most once per `maxAgeMs` however many ask (page-cache.ts), and answered at
 * most `perSecond` times a second (pace.ts), so that a reader reloading it, or a script
 * fetching it in a loop, costs the watch one bounded build (io/report/paged.ts) every few
 * seconds and a few writes a second.
 *
 * @example
 * const live = liveReport({ store, source: '.revisit', runs: 24 });
 * const { status, body } = await live.answer(new URLSearchParams('run=1733148600000&skip=200'));
 */
export function liveReport(options: LiveReportOptions): LiveReport {
	const runs = options.runs ?? 1;
	const limit = options.limit ?? 200;
	const now = options.now ?? Date.now;
	const pages = pageCache(
		async (key): Promise<Answer> => {
			options.onBuild?.();
			const from = key === 'newest' ? undefined : { run: Number(key.split(':')[0]), skip: Number(key.split(':')[1]) };
			const { data, paging } = await loadReportPage(options.store, { runs, limit, from }, options.source, now());
			const first = from ? `from the run of ${new Date(from.run).toISOString()}${from.skip > 0 ? ` (after its first ${from.skip})` : ''}` : 'the newest';
			const note = paging.gone
				? 'That run is no longer among the last runs shown.'
				: `${data.changes.length} of the ${data.summary.changed} changes of the last ${data.summary.runs} run(s), ${first}, newest first; ` +
					`errors of the ${paging.runsRead} run(s) they come from.`;
			const links = {
				note,
				newest: from ? './' : undefined,
				older: paging.next ? href(paging.next) : undefined,
				hosts: paging.hostsLeftOut > 0 ? `The ${data.hosts.length} hosts with the most changes; ${paging.hostsLeftOut} more are not shown.` : undefined,
			};
			return { status: 200, type: HTML, body: Buffer.from(renderReport({ ...data, urlPages: { query: 'url?u=' } }, links)) };
		},
		{ maxAgeMs: options.maxAgeMs ?? 5000, max: KEPT_PAGES, now },
	);
	const pace = pacer(options.perSecond ?? 10, WAITING);
	return {
		answer: async (search) => {
			const turn = pace.turn();
			if (!turn)
				return { status: 503, type: TEXT, body: Buffer.from(`more than ${WAITING} requests for the report page wait already; ask again in a second\n`) };
			await turn;
			const cursor = cursorOf(search);
			if (typeof cursor === 'string') return { status: 400, type: TEXT, body: Buffer.from(`${cursor}\n`) };
			return pages.get(cursor ? `${cursor.run}:${cursor.skip}` : 'newest');
		},
		// A URL's page is built on each request (one URL's versions, read with the pace of the others): it has no cache of its own.
		answerUrl: async (search) => {
			const turn = pace.turn();
			if (!turn) return { status: 503, type: TEXT, body: Buffer.from(`more than ${WAITING} requests for report pages wait already; ask again in a second\n`) };
			await turn;
			const scope = urlPageOf(search);
			if (typeof scope === 'string') return { status: 400, type: TEXT, body: Buffer.from(`${scope}\n`) };
			const data = await loadUrlPage(options.store, scope.url, options.source, { a: scope.a, b: scope.b, back: './', served: true }, now());
			return { status: data.versions.length === 0 ? 404 : 200, type: HTML, body: Buffer.from(renderUrlPage(data)) };
		},
	};
}
