import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { verificationBound, verificationOverdue } from '../hosts/verify.js';
import { liveRecord } from '../http/target.js';
import { candidateOf, ranksBefore, type BudgetOptions, type Candidate } from '../schedule/pick.js';
import type { UrlRecord } from '../store/types.js';
import type { Clock, Task } from '../types.js';
import { Heap, type HeapEntry } from '../util/heap.js';

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
	 * The stored records of these URLs, in order (the store's `getMany`). Given, a held URL
	 * keeps no record while it waits, and the chosen ones are read again once the input
	 * ends: a record with its history is most of what a held URL costs (about 1.1 KiB in
	 * all, bench/BUDGET.md). Without it, the records are kept.
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
export function budgetCandidate(record: UrlRecord, origin: string, flags: { mustVerify?: boolean | undefined; announced?: boolean | undefined }, verifyEveryMs: number, now: number): Candidate {
	const live = liveRecord(record);
	const verify = live !== undefined && (flags.mustVerify === true || verificationOverdue(live, verifyEveryMs, now));
	return candidateOf(record, origin, { verify, announced: flags.announced === true }, now);
}

/**
 * A known URL still in the running: its place in the input, and its entries in the heaps
 * it is in. A class, so that every held URL shares one shape: most of what a held URL
 * costs is bookkeeping, and 100,000 of them are what a `--budget 100000` run holds.
 */
class Held {
	inHost: HeapEntry<Held> | undefined = undefined;
	inAll: HeapEntry<Held> | undefined = undefined;

	constructor(
		/** The task as it came (not a copy: a copy made by a spread got a hidden class of its own, ~300 bytes each), without its record when the stage can reload it. */
		readonly task: Task,
		readonly candidate: Candidate,
		readonly index: number,
		/** Its verification bound (epoch ms), if it has one: what `pastBound` counts. */
		readonly bound: number | undefined,
	) {}
}

/** Chosen URLs whose records are read again in one `reload`. */
const RELOAD_BATCH = 256;

/** The worst candidate on top: the one to let go first. */
const worstFirst = (a: Held, b: Held): boolean => ranksBefore(b.candidate, b.index, a.candidate, a.index);

/**
 * Checks at most `budget` URLs in the run (`hostBudget` per origin): those whose check
 * adds the most expected freshness (schedule/pick.ts). New URLs go through at once while
 * the budget lasts. Known ones are ranked as they come, in a heap of the best `budget`
 * (and one of the best `hostBudget` per origin): one pushed out is marked `later` at once
 * (counted in the summary, left as it is in the store), and those still in when the input
 * ends are checked, in input order, each passed on once a credit is free (`acquire`). So a
 * run holds O(budget) URLs, however many are due.
 * Without a budget it is the identity.
 *
 * @example
 * tasks$.pipe(lookup(store, { book }), due(...), budget({ budget: 200, verifyEveryMs: 0 }, { clock }), probe(...))
 */
export function budget(options: BudgetStageOptions, deps: BudgetDeps): MonoTypeOperatorFunction<Task> {
	if (options.budget === undefined && options.hostBudget === undefined) return (source) => source;
	const total = options.budget ?? Infinity;
	const perHost = options.hostBudget ?? Infinity;
	return (source) =>
		new Observable<Task>((subscriber) => {
			const all = new Heap<Held>(worstFirst);
			const hosts = new Map<string, Heap<Held>>();
			// Checks taken by new URLs, in all and per origin.
			const used = new Map<string, number>();
			let taken = 0;
			let index = 0;
			// Known URLs left for later past their verification bound, per origin.
			const pastBound = new Map<string, number>();
			const letGo = (held: Held) => {
				const { task } = held;
				if (held.inAll) all.remove(held.inAll);
				if (held.inHost) hosts.get(task.origin!)!.remove(held.inHost);
				if (held.bound !== undefined && held.bound <= deps.clock.now()) pastBound.set(task.origin!, pastBound.get(task.origin!)! + 1);
				subscriber.next({ ...task, skip: 'later' });
			};
			// Over either bound, the worst goes: from its host's heap, then from all.
			const trim = (origin: string) => {
				const host = hosts.get(origin);
				const room = perHost - (used.get(origin) ?? 0);
				while (host && host.size > room) letGo(host.peek()!.value);
				while (all.size > total - taken) letGo(all.peek()!.value);
			};
			let stopped = false;
			// The chosen, in input order, each let go of as it is passed on; their records read again in batches.
			const passOnChosen = async (chosen: Array<Held | undefined>): Promise<void> => {
				let records: Array<UrlRecord | undefined> = [];
				for (let i = 0; i < chosen.length && !stopped; i++) {
					const { task } = chosen[i]!;
					if (deps.reload && i % RELOAD_BATCH === 0) records = await deps.reload(chosen.slice(i, i + RELOAD_BATCH).map((held) => held!.task.url!));
					const record = deps.reload ? { record: records[i % RELOAD_BATCH] ?? null } : {};
					chosen[i] = undefined;
					if (!deps.acquire) {
						subscriber.next({ ...task, ...record });
						continue;
					}
					const waiting = deps.acquire();
					if (waiting) await waiting;
					if (!stopped) subscriber.next({ ...task, ...record, creditReturned: false });
				}
				subscriber.complete();
			};
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
						trim(origin);
						return subscriber.next(task);
					}
					if (!task.creditReturned && !task.parked) deps.release?.();
					if (!pastBound.has(origin)) pastBound.set(origin, 0);
					const live = liveRecord(task.record);
					const held = new Held(task, budgetCandidate(task.record, origin, task, options.verifyEveryMs, deps.clock.now()), index++, live && verificationBound(live, options.verifyEveryMs));
					// The task is this stage's now (a task belongs to one stage at a time): held as it is, not copied.
					task.creditReturned = true;
					if (deps.reload) task.record = undefined;
					if (Number.isFinite(perHost)) {
						let host = hosts.get(origin);
						if (!host) hosts.set(origin, (host = new Heap<Held>(worstFirst)));
						held.inHost = host.push(held);
					}
					if (Number.isFinite(total)) held.inAll = all.push(held);
					trim(origin);
				},
				error: (error: unknown) => subscriber.error(error),
				complete() {
					deps.onPastBound?.(pastBound);
					const entries = Number.isFinite(total) ? all.entries() : [...hosts.values()].flatMap((host) => host.entries());
					const chosen = entries.map((entry) => entry.value).sort((a, b) => a.index - b.index);
					all.clear();
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
