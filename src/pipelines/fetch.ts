import { pipe, type MonoTypeOperatorFunction, type OperatorFunction } from 'rxjs';
import { compare } from '../stages/compare.js';
import { dedupe } from '../stages/dedupe.js';
import { fetchBodies } from '../stages/fetch-bodies.js';
import { lookup } from '../stages/lookup.js';
import { normalise } from '../stages/normalise.js';
import type { InputLine } from '../stages/read-lines.js';
import { schedule } from '../stages/schedule.js';
import type { Task } from '../types.js';
import { guard, sweepStages, type SweepDeps } from './sweep.js';
import type { SweepOptions } from './sweep-options.js';

/** The fetch phase's limits; the sweep's other options apply as they are. */
export const fetchDefaults = { concurrency: 6, perHost: 2, highWater: 64 } as const;

/**
 * The fetch phase for tasks already looked up: download (all, or only the sweep's
 * candidates), judge the body against the store, schedule, churn guard. Write the
 * bodies and commit after it.
 *
 * @example
 * tasks$.pipe(fetchPhase(fetchDeps, options, 'candidates'), writeBodies(sink, clock), commit(store))
 */
export function fetchPhase(deps: SweepDeps, options: SweepOptions, only: 'all' | 'candidates'): MonoTypeOperatorFunction<Task> {
	return pipe(
		fetchBodies(deps, { ...options, highWater: Math.min(options.highWater, fetchDefaults.highWater * 4), only }),
		compare({ acceptEncoding: options.acceptEncoding }, deps.clock),
		schedule(options),
		guard(deps, options),
	);
}

/**
 * `revisit fetch`: normalise, dedupe, lookup, then the fetch phase.
 *
 * @example
 * readLines(stdin, valve).pipe(fetchStages(deps, options), writeBodies({ type: 'dir', dir: 'pages' }, clock), commit(store))
 */
export function fetchStages(deps: SweepDeps, options: SweepOptions): OperatorFunction<InputLine, Task> {
	return pipe(normalise(), dedupe(), lookup(deps.store, { book: deps.book }), fetchPhase(deps, options, 'all'));
}

/**
 * `revisit crawl`: a candidates sweep at the sweep's limits feeding the fetch phase at
 * its own (`fetchDeps` carries the fetch limiter). The two share the run's backpressure
 * credit, which is the bounded queue between them.
 *
 * @example
 * readLines(stdin, valve).pipe(crawlStages(sweepDeps, sweepOptions, fetchDeps, fetchOptions), writeBodies(...), commit(store))
 */
export function crawlStages(sweepDeps: SweepDeps, sweepOptions: SweepOptions, fetchDeps: SweepDeps, fetchOptions: SweepOptions): OperatorFunction<InputLine, Task> {
	return pipe(sweepStages(sweepDeps, { ...sweepOptions, candidates: true }), fetchPhase(fetchDeps, fetchOptions, 'candidates'));
}
