import type { Got } from 'got';
import { pipe, type OperatorFunction } from 'rxjs';
import type { Limiter } from '../http/limiter.js';
import { compare } from '../stages/compare.js';
import { dedupe } from '../stages/dedupe.js';
import { lookup } from '../stages/lookup.js';
import { normalise } from '../stages/normalise.js';
import { probe } from '../stages/probe.js';
import type { InputLine } from '../stages/read-lines.js';
import type { ValidatorStore } from '../store/types.js';
import type { Clock, Task } from '../types.js';
import type { SweepOptions } from './sweep-options.js';

export interface SweepDeps {
	store: ValidatorStore;
	http: Got;
	limiter: Limiter;
	clock: Clock;
	random: () => number;
}

/**
 * The judging half of a sweep: normalise, dedupe, lookup, probe, compare. What
 * happens to the verdicts (emit, commit) is the caller's choice; see `cli/commands/sweep.ts`
 * and `index.ts`'s `sweep()`.
 *
 * @example
 * readLines(stdin, valve).pipe(sweepStages(deps, options), emit(targets), commit(store))
 */
export function sweepStages(deps: SweepDeps, options: SweepOptions): OperatorFunction<InputLine, Task> {
	return pipe(
		normalise(),
		dedupe(),
		lookup(deps.store),
		probe(deps, {
			acceptEncoding: options.acceptEncoding,
			retries: options.retries,
			retryDelayMs: options.retryDelayMs,
			maxRetryAfterMs: options.maxRetryAfterMs,
			highWater: options.highWater,
		}),
		compare({ acceptEncoding: options.acceptEncoding }, deps.clock),
	);
}
