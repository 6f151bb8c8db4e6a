import type { Got } from 'got';
import { pipe, type OperatorFunction } from 'rxjs';
import type { HostBook } from '../hosts/book.js';
import type { Limiter } from '../http/limiter.js';
import { compare } from '../stages/compare.js';
import { dedupe } from '../stages/dedupe.js';
import { lookup } from '../stages/lookup.js';
import { normalise } from '../stages/normalise.js';
import { probe } from '../stages/probe.js';
import { trust } from '../stages/trust.js';
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
	/** This run's hosts; one book per run. */
	book: HostBook;
}

/**
 * The judging half of a sweep: normalise, dedupe, lookup, probe, compare, trust. What
 * happens to the verdicts (emit, commit) is the caller's choice; see `cli/commands/sweep.ts`
 * and `api/sweep.ts`. Commit with `extra: deps.book.drain` so host health is stored too.
 *
 * @example
 * readLines(stdin, valve).pipe(sweepStages(deps, options), emit(targets), commit(store, { extra: deps.book.drain }))
 */
export function sweepStages(deps: SweepDeps, options: SweepOptions): OperatorFunction<InputLine, Task> {
	return pipe(
		normalise(),
		dedupe(),
		lookup(deps.store, { book: deps.book }),
		probe(deps, options),
		compare({ acceptEncoding: options.acceptEncoding }, deps.clock),
		trust(deps.book, options.trust, deps.clock),
	);
}
