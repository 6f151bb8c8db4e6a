import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { HostBook } from '../hosts/book.js';
import { verificationDue } from '../hosts/verify.js';
import { liveRecord } from '../http/target.js';
import { candidateOf, pick, type BudgetOptions, type Candidate } from '../schedule/pick.js';
import type { Clock, Task } from '../types.js';

export interface BudgetStageOptions extends BudgetOptions {
	/** `--verify-every` in ms (0: off): a URL it has made due is taken before the others. */
	verifyEveryMs: number;
}

export interface BudgetDeps {
	book: HostBook;
	clock: Clock;
	/** A task went into the buffer: give its backpressure credit back so the reader goes on. */
	release?(): void;
}

/**
 * Checks at most `budget` URLs in the run (`hostBudget` per origin): those whose check
 * adds the most expected freshness (schedule/pick.ts). New URLs go through at once while
 * the budget lasts; known ones are held until the input ends, then ranked. Those not
 * taken are marked `later` (counted in the summary, left as they are in the store).
 * Without a budget it is the identity.
 *
 * @example
 * tasks$.pipe(lookup(store, { book }), due(...), budget({ budget: 200, verifyEveryMs: 0 }, { book, clock }), probe(...))
 */
export function budget(options: BudgetStageOptions, deps: BudgetDeps): MonoTypeOperatorFunction<Task> {
	if (options.budget === undefined && options.hostBudget === undefined) return (source) => source;
	const total = options.budget ?? Infinity;
	const perHost = options.hostBudget ?? Infinity;
	return (source) =>
		new Observable<Task>((subscriber) => {
			const held: Task[] = [];
			const used = new Map<string, number>();
			let taken = 0;
			const subscription = source.subscribe({
				next(task) {
					if (task.skip || task.url === undefined) return subscriber.next(task);
					const origin = task.origin!;
					if (!task.record) {
						// New: first, in input order, while the budget lasts.
						const count = used.get(origin) ?? 0;
						if (taken >= total || count >= perHost) return subscriber.next({ ...task, skip: 'later' });
						taken++;
						used.set(origin, count + 1);
						return subscriber.next(task);
					}
					if (!task.creditReturned && !task.parked) deps.release?.();
					held.push({ ...task, creditReturned: true });
				},
				error: (error: unknown) => subscriber.error(error),
				complete() {
					const now = deps.clock.now();
					const candidates: Candidate[] = held.map((task) => {
						const live = liveRecord(task.record);
						const verify = live !== undefined && verificationDue(live, task.url!, deps.book.get(task.origin!).runInterval, options.verifyEveryMs, now);
						return candidateOf(task.record, task.origin!, { verify, announced: task.announced === true }, now);
					});
					const chosen = pick(candidates, { budget: Math.max(0, total - taken), hostBudget: perHost, used });
					held.forEach((task, i) => subscriber.next(chosen[i] ? task : { ...task, skip: 'later' }));
					subscriber.complete();
				},
			});
			return () => subscription.unsubscribe();
		});
}
