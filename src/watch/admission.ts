import { concatMap, ignoreElements, type Observable } from 'rxjs';
import type { HostBook } from '../net/hosts/book.js';
import type { DueQueue } from '../store/model/due.js';
import type { StoreReader } from '../store/model/types.js';
import { admit } from './admit.js';
import { announced } from './announced.js';
import type { WatchClock } from './clock.js';
import { setGaps } from './gaps.js';
import type { InputBatch } from './inputs.js';
import type { WatchObserver } from './run.js';
import type { Sayings } from './say.js';

/**
 * A watch's inputs taken into its schedule, one batch after another: each origin first
 * seen given its --host-rate gap (`hostGapMs`, wall ms), the batch's URLs admitted
 * (`admit`), the URLs whose trusted lastmod says they changed put due now (`announced`),
 * its lines that are not URLs diagnosed, and what it did said (`say.admitted`). The batch
 * that says every input's first reading is in (`settled`) tells the observer and the
 * watch's lines the schedule's figures. Emits nothing; runs until the inputs complete.
 *
 * @example
 * admitInputs(plan.inputs, { queue, store, book, clock, say, diagnose, hostGapMs }).pipe(takeUntil(over))
 */
export function admitInputs(
	inputs: Observable<InputBatch>,
	context: {
		queue: DueQueue;
		store: StoreReader;
		book: HostBook;
		clock: WatchClock;
		say: Pick<Sayings, 'admitted' | 'settled'>;
		diagnose(line: string): void;
		observer?: WatchObserver | undefined;
		hostGapMs?: number | undefined;
	},
): Observable<never> {
	const { queue, clock, say } = context;
	// Origins given their --host-rate gap: one call each, the first time they are seen.
	const gapped = new Set<string>();
	return inputs.pipe(
		concatMap(async (batch) => {
			if (batch.settled) {
				const stats = await queue.stats();
				context.observer?.queue?.(stats);
				return say.settled(stats);
			}
			// The gap first: a URL put due now is claimed at once, by this process or another on the store, and its origin's second claim must already wait for it.
			if (context.hostGapMs !== undefined) await setGaps(queue, batch, gapped, context.hostGapMs / clock.wallMs(1));
			const result = await admit(queue, batch, { now: clock.now() });
			await announced(batch, { store: context.store, book: context.book, queue, now: clock.now() });
			for (const problem of result.problems) context.diagnose(`${problem.source} line ${problem.line}: ${problem.problem}`);
			say.admitted(batch, result);
		}),
		ignoreElements(),
	);
}
