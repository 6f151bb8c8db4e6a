import { noteOffer } from '../net/hosts/no-offer.js';
import { defer, identity, pipe, type MonoTypeOperatorFunction, type OperatorFunction } from 'rxjs';
import { fetchDefaults } from '../config/defaults.js';
import { candidateSweepScale } from '../net/hosts/candidate-sweep.js';
import { createLimiter } from '../net/http/limiter.js';
import type { ChurnScale } from '../stages/churn-guard.js';
import { compare } from '../stages/compare.js';
import { dedupe } from '../stages/dedupe.js';
import { fetchBodies } from '../stages/fetch-bodies.js';
import { lookup } from '../stages/lookup.js';
import { normalise } from '../stages/normalise.js';
import { schedule } from '../stages/schedule.js';
import { tally } from '../stages/tally.js';
import type { InputLine, Task } from '../domain/task/types.js';
import { guard, judgeStages, robotsStage, type SweepDeps, type SweepExtras } from './sweep.js';
import { normaliseSweepOptions } from './normalise-options.js';
import type { SweepOptions, SweepOptionsInput } from './sweep-options.js';

export { fetchDefaults };

/**
 * The fetch phase for tasks already looked up: download (all, or only the sweep's
 * candidates), judge the body against the store, schedule, churn guard. Write the
 * bodies and commit after it. `scale` is each host's probed and passed-on counts from
 * the sweep that chose the candidates, so that the guard judges churn over every URL
 * that sweep probed.
 *
 * @example
 * tasks$.pipe(fetchPhase(fetchDeps, options, 'candidates', (origin) => figures.get(origin)), writeBodies({}, { sink, clock }), commit({}, store))
 */
export function fetchPhase(
	deps: SweepDeps,
	options: SweepOptions,
	only: 'all' | 'candidates',
	scale?: (origin: string) => ChurnScale | undefined,
): MonoTypeOperatorFunction<Task> {
	return (source) =>
		defer(() => {
			// Hosts the guard blocked in this run: their remaining URLs are held without being downloaded.
			const blocked = new Set<string>();
			return source.pipe(
				fetchBodies({ ...options, highWater: Math.min(options.highWater, fetchDefaults.highWater * 4), only, skip: (origin) => blocked.has(origin) }, deps),
				compare(
					{
						acceptEncoding: options.acceptEncoding,
						verifyEveryMs: options.trust.verifyEveryMs,
						hostNoise: (origin) => deps.book.get(origin).noise,
						keepTextBytes: options.keepTextBytes,
						offerRead: (origin, url, found) => noteOffer(deps.book, origin, url, found),
					},
					deps.clock,
				),
				schedule(options),
				guard(deps, options, scale, (origin) => blocked.add(origin)),
			);
		});
}

/**
 * `revisit fetch`: normalise, dedupe, lookup, then the fetch phase. Where the host's
 * latest run was a candidates sweep (`sweep --candidates | fetch`), the guard takes that
 * sweep's counts from the host record.
 *
 * @example
 * readLines(stdin, valve).pipe(fetchStages(deps, options), writeBodies({}, { sink: { type: 'dir', dir: 'pages' }, clock }), commit({}, store))
 */
export function fetchStages(deps: SweepDeps, options: SweepOptions, extras: SweepExtras = {}): OperatorFunction<InputLine, Task> {
	return pipe(
		normalise(),
		dedupe(extras.filter ?? identity),
		lookup({ book: deps.book }, deps.store),
		robotsStage(deps, options),
		fetchPhase(deps, options, 'all', candidateSweepScale(deps.book)),
	);
}

/**
 * Options for `revisit fetch` (and the library's `fetch()`): GET only, no audits, a
 * bounded number of bodies in memory, the fetch phase's own limits unless given.
 *
 * @example
 * fetchOptions({ concurrency: 4 }, process.env) // { ...sweepDefaults, concurrency: 4, perHost: 2, method: 'get', ... }
 */
export function fetchOptions(input: SweepOptionsInput = {}, env: Record<string, string | undefined> = process.env): SweepOptions {
	return normaliseSweepOptions(
		{
			...input,
			concurrency: input.concurrency ?? fetchDefaults.concurrency,
			perHost: input.perHost ?? fetchDefaults.perHost,
			method: 'get',
			trust: { ...input.trust, auditRate: 0 },
			highWater: fetchDefaults.highWater * 4,
			// The body is in memory anyway; its counted text lets compare leave out learnt noise.
			applyNoise: true,
		},
		env,
	);
}

/** The two phases' options of a crawl. */
export interface CrawlOptions {
	sweep: SweepOptions;
	fetch: SweepOptions;
}

/**
 * A crawl's options from the sweep's and the fetch phase's limits: the sweep reads
 * headers only (candidates); the fetch phase keeps the sweep's other options.
 *
 * @example
 * crawlOptions(normaliseSweepOptions(), { concurrency: 6, perHost: 2 })
 */
export function crawlOptions(sweep: SweepOptions, limits: { concurrency?: number | undefined; perHost?: number | undefined } = {}): CrawlOptions {
	const candidates = normaliseSweepOptions({ ...sweep, candidates: true, applyNoise: true });
	return {
		sweep: candidates,
		fetch: normaliseSweepOptions({
			...candidates,
			concurrency: limits.concurrency ?? fetchDefaults.concurrency,
			perHost: limits.perHost ?? fetchDefaults.perHost,
		}),
	};
}

/**
 * `crawlStages` with the fetch phase's own limiter made from its options: what
 * `revisit crawl`, `sweep --fetch` and a pipeline with a fetch stage run.
 *
 * @example
 * readLines(stdin, valve).pipe(crawl(deps, crawlOptions(options)), writeBodies(...), emit(...), commit({}, store))
 */
export function crawl(deps: SweepDeps, options: CrawlOptions, extras: SweepExtras = {}): OperatorFunction<InputLine, Task> {
	// The fetch limiter keeps the per-origin gaps (Crawl-delay) the sweep phase set.
	const fetchDeps = {
		...deps,
		limiter: createLimiter(
			{ concurrency: options.fetch.concurrency, perHost: options.fetch.perHost, rate: options.fetch.rate },
			deps.clock,
			deps.limiter.pacing,
		),
	};
	return crawlStages(deps, options.sweep, fetchDeps, options.fetch, extras);
}

/**
 * `revisit crawl`: a candidates sweep at the sweep's limits feeding the fetch phase at
 * its own (`fetchDeps` carries the fetch limiter). The two share the run's backpressure
 * credit, which is the bounded queue between them. The sweep phase counts each host's
 * probed URLs and candidates as it goes, and the fetch phase's guard judges with those
 * running counts: unchanged pages reach it sooner than fetched ones, so counting them on
 * arrival would understate churn.
 *
 * @example
 * readLines(stdin, valve).pipe(crawlStages(sweepDeps, sweepOptions, fetchDeps, fetchOptions), writeBodies(...), commit({}, store))
 */
export function crawlStages(
	sweepDeps: SweepDeps,
	sweepOptions: SweepOptions,
	fetchDeps: SweepDeps,
	fetchOptions: SweepOptions,
	extras: SweepExtras = {},
): OperatorFunction<InputLine, Task> {
	return (source) =>
		defer(() => {
			// Each subscription is one run, with its own counts.
			const figures = new Map<string, ChurnScale>();
			return source.pipe(
				judgeStages(sweepDeps, { ...sweepOptions, candidates: true }, extras),
				tally((origin, counted) => figures.set(origin, counted)),
				fetchPhase(fetchDeps, fetchOptions, 'candidates', (origin) => figures.get(origin)),
			);
		});
}
