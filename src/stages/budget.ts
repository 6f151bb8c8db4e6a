import { map, Observable, type MonoTypeOperatorFunction, type OperatorFunction } from 'rxjs';
import { verificationBound, verificationOverdue } from '../net/hosts/verify.js';
import { liveRecord } from '../net/http/target.js';
import { candidateOf, type BudgetOptions, type BudgetCandidate } from '../domain/schedule/pick.js';
import type { UrlRecord } from '../store/model/types.js';
import type { Task } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';
import { SlotHeap } from '../base/util/slot-heap.js';
import { HeldUrls, type Rank } from './budget-held.js';

export type { Rank } from './budget-held.js';

export interface BudgetStageOptions extends BudgetOptions {
	/** `--verify-every` in ms (0: off): see `budgetCandidate` for what it changes in the pick. */
	verifyEveryMs: number;
}

export interface BudgetDeps {
	clock: Clock;
	/** A task went into the buffer: give its backpressure credit back so the reader goes on. */
	release?(): void;
	/** When the input ends: per origin with known URLs in the run, how many it left for later although past their verification bound. */
	onPastBound?(counts: ReadonlyMap<string, number>): void;
	/**
	 * Take a credit back for a chosen task before it is passed on once the input ends
	 * (undefined when one was free at once), so that the chosen go on at the pace the
	 * checks take rather than all at once into the probe's queue. Without it, all at once.
	 */
	acquire?(): Promise<void> | undefined;
	/**
	 * The stored records of these URLs, in order (the store's `getMany`). A held URL keeps
	 * no record while it waits (a record with its history would be most of what it costs,
	 * bench/BUDGET.md): the chosen ones are read again with this once the input ends, and
	 * come without a record where it is not given.
	 */
	reload?(urls: readonly string[]): Promise<Array<UrlRecord | undefined>>;
}

/**
 * How a stored URL competes for a run's budget. Verification rides on the budget's own
 * choice: a URL due for it competes by its value like any other, and if chosen, its check
 * goes unconditional (the probe sees it is due). It is taken before the others (`verify`)
 * only where nothing else would check it: a trusted signal would skip it (`mustVerify`),
 * or it is a whole period past its bound (`verificationOverdue`).
 *
 * @example
 * budgetCandidate(record, 'https://example.org', { mustVerify: false, announced: false }, 30 * 86_400_000, Date.now())
 */
export function budgetCandidate(
	record: UrlRecord,
	origin: string,
	flags: { mustVerify?: boolean | undefined; announced?: boolean | undefined },
	verifyEveryMs: number,
	now: number,
): BudgetCandidate {
	const live = liveRecord(record);
	const verify = live !== undefined && (flags.mustVerify === true || verificationOverdue(live, verifyEveryMs, now));
	return candidateOf(record, origin, { verify, announced: flags.announced === true }, now);
}

/** Chosen URLs whose records are read again in one `reload`. */
const RELOAD_BATCH = 256;

/**
 * Checks at most `budget` URLs in the run (`hostBudget` per origin): those whose check
 * adds the most expected freshness (domain/schedule/pick.ts). New URLs go through at once while
 * the budget lasts. Known ones are ranked as they come, in a heap of the best `budget`
 * (and one of the best `hostBudget` per origin): one pushed out is marked `later` at once
 * (counted in the summary, left as it is in the store), and those still in when the input
 * ends are checked, in input order, each passed on once a credit is free (`acquire`). So a
 * run holds O(budget) URLs, however many are due, and of each only what ranks it and
 * gives its task back (`HeldUrls`): its record is read again once chosen (`reload`).
 * Without a budget it is the identity.
 *
 * @example
 * tasks$.pipe(lookup({ book }, store), due(...), budget({ budget: 200, verifyEveryMs: 0 }, { clock }), probe(...))
 */
export function budget(options: BudgetStageOptions, deps: BudgetDeps): MonoTypeOperatorFunction<Task> {
	if (options.budget === undefined && options.hostBudget === undefined) return (source) => source;
	return budgetStage(options, deps, (task) => task, false);
}

/**
 * The budget stage, each task handed to `deps.out` with how it ranked where the stage held it
 * (a known URL: let go as `later`, or chosen), for a caller that reports the ranking
 * (`revisit due`) without the records. Tasks it did not hold (new, skipped) come without.
 * Without a budget, every task goes to `out` as it came.
 *
 * @example
 * rankedBudget({ budget: 200, verifyEveryMs: 0 }, { clock, out: (task, rank) => ({ url: task.url, value: rank?.value }) })
 */
export function rankedBudget<T>(options: BudgetStageOptions, deps: BudgetDeps & { out: (task: Task, rank?: Rank) => T }): OperatorFunction<Task, T> {
	if (options.budget === undefined && options.hostBudget === undefined) return map((task) => deps.out(task));
	return budgetStage(options, deps, deps.out, true);
}

/** The stage; `ranks`: whether `out` is given each held task's rank (a sweep does not use it: no object per task for it). */
function budgetStage<T>(options: BudgetStageOptions, deps: BudgetDeps, out: (task: Task, rank?: Rank) => T, ranks: boolean): OperatorFunction<Task, T> {
	const total = options.budget ?? Infinity;
	const perHost = options.hostBudget ?? Infinity;
	return (source) =>
		new Observable<T>((subscriber) => {
			// At most `total` held, and one more for a moment as it comes in.
			const held = new HeldUrls(total + 1);
			const all = new SlotHeap(held.worse, held.inAll);
			const hosts = new Map<string, SlotHeap>();
			// Checks taken by new URLs, in all and per origin.
			const used = new Map<string, number>();
			let taken = 0;
			let index = 0;
			// Known URLs left for later past their verification bound, per origin.
			const pastBound = new Map<string, number>();
			const letGo = (slot: number) => {
				const origin = held.origin(slot);
				all.remove(slot);
				const host = hosts.get(origin);
				if (host) {
					host.remove(slot);
					if (host.size === 0) hosts.delete(origin);
				}
				if (held.bound(slot) <= deps.clock.now()) pastBound.set(origin, pastBound.get(origin)! + 1);
				const task = held.task(slot);
				task.skip = 'later';
				task.creditReturned = true;
				const rank = ranks ? held.rank(slot) : undefined;
				held.free(slot);
				subscriber.next(out(task, rank));
			};
			// Over either bound, the worst goes: from its host's heap, then from all.
			const trim = (origin: string) => {
				const room = perHost - (used.get(origin) ?? 0);
				for (let host = hosts.get(origin); host && host.size > room; host = hosts.get(origin)) letGo(host.peek());
				while (all.size > total - taken) letGo(all.peek());
			};
			let stopped = false;
			// The chosen, in input order, each let go of as it is passed on; their records read again in batches.
			const passOnChosen = async (chosen: number[]): Promise<void> => {
				let records: Array<UrlRecord | undefined> = [];
				for (let i = 0; i < chosen.length && !stopped; i++) {
					const slot = chosen[i]!;
					if (deps.reload && i % RELOAD_BATCH === 0) records = await deps.reload(chosen.slice(i, i + RELOAD_BATCH).map((each) => held.url(each)));
					const task = held.task(slot);
					if (deps.reload) task.record = records[i % RELOAD_BATCH] ?? null;
					const rank = ranks ? held.rank(slot) : undefined;
					held.free(slot);
					if (!deps.acquire) {
						task.creditReturned = true;
						subscriber.next(out(task, rank));
						continue;
					}
					const waiting = deps.acquire();
					if (waiting) await waiting;
					task.creditReturned = false;
					if (!stopped) subscriber.next(out(task, rank));
				}
				subscriber.complete();
			};
			const subscription = source.subscribe({
				next(task) {
					if (task.skip || task.url === undefined) return subscriber.next(out(task));
					const origin = task.origin!;
					if (!task.record) {
						// New: first, in input order, while the budget lasts.
						const count = used.get(origin) ?? 0;
						if (taken >= total || count >= perHost) return subscriber.next(out({ ...task, skip: 'later' }));
						taken++;
						used.set(origin, count + 1);
						trim(origin);
						return subscriber.next(out(task));
					}
					if (!task.creditReturned && !task.parked) deps.release?.();
					if (!pastBound.has(origin)) pastBound.set(origin, 0);
					const live = liveRecord(task.record);
					// The task ends here: what ranks it and gives it back is held, not the task (nor its record).
					const slot = held.add(
						task,
						budgetCandidate(task.record, origin, task, options.verifyEveryMs, deps.clock.now()),
						index++,
						live && verificationBound(live, options.verifyEveryMs),
					);
					if (Number.isFinite(perHost)) {
						let host = hosts.get(origin);
						if (!host) hosts.set(origin, (host = new SlotHeap(held.worse, held.inHost)));
						host.push(slot);
					}
					if (Number.isFinite(total)) all.push(slot);
					trim(origin);
				},
				error: (error: unknown) => subscriber.error(error),
				complete() {
					deps.onPastBound?.(pastBound);
					const slots = Number.isFinite(total) ? [...all.slots()] : [...hosts.values()].flatMap((host) => [...host.slots()]);
					const chosen = slots.sort((a, b) => held.index(a) - held.index(b));
					all.clear();
					for (const host of hosts.values()) host.clear();
					hosts.clear();
					passOnChosen(chosen).catch((error: unknown) => subscriber.error(error));
				},
			});
			return () => {
				stopped = true;
				subscription.unsubscribe();
			};
		});
}
