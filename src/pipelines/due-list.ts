import { from, type Observable } from 'rxjs';
import { createHostBook } from '../net/hosts/book.js';
import { probeTarget } from '../net/http/target.js';
import type { BudgetOptions, PickTier } from '../domain/schedule/pick.js';
import { budgetCandidate, rankedBudget, type Rank } from '../stages/budget.js';
import { isDue } from '../stages/due.js';
import { signalGate } from '../stages/signal-gate.js';
import type { StoreReader } from '../store/model/types.js';
import type { Task } from '../domain/task/types.js';

/** One stored URL that is due, as `revisit due --json` prints it. */
export interface DueRow {
	url: string;
	/** Estimated changes per day. */
	rate: number;
	/** Its last check (ISO 8601). */
	lastChecked: string;
	/** Why it competes where it does: `verify` (a check of its own for verification) before `value`. */
	tier: PickTier;
	/** ψ: days of freshness a check now adds (docs/12-scheduling.md); null for `verify`. */
	value: number | null;
	/** Left for a later run by the budget. */
	later: boolean;
	/** Skipped by its host's trusted max-age (`signal`), as a run skips it; a run checks 1% a day of these anyway, at random. */
	skip?: 'signal';
}

export interface DueListOptions extends BudgetOptions {
	ttlMs?: number | undefined;
	/** `--verify-every` in ms; 0 off. */
	verifyEveryMs: number;
	now: number;
	/**
	 * Asked before each stored URL is read and each chosen one is passed on: a promise
	 * holds them until the reader has room (stdout's drain), so that nothing piles up
	 * between the list and its reader, the chosen (all decided at once) least of all.
	 */
	ready?(): Promise<void> | undefined;
}

/**
 * The stored URLs due at `now`, each marked `later` where a run with this budget would
 * leave it for later, and `skip: 'signal'` where its host's trusted max-age would skip
 * it: the run's own signal gate and budget stages, over the store instead of the input,
 * so it holds O(budget) URLs, and of each only what ranks it (no record). Entries come
 * as they are decided: those left for later while the store is read, those chosen at
 * the end. A sitemap's lastmod is not in the
 * store: a run that reads one may skip or announce more.
 *
 * @example
 * dueList(store, { budget: 200, verifyEveryMs: 0, now: Date.now() }).subscribe((entry) => console.log(entry.url));
 */
export function dueList(store: StoreReader, options: DueListOptions): Observable<DueRow> {
	const clock = { now: () => options.now };
	const book = createHostBook(store, options.now);
	// Pulled one record at a time: the store is read no faster than the stages take it
	// (`from(store.entries())` would read it all ahead into concatMap's buffer).
	const tasks = from(
		(async function* (): AsyncGenerator<Task> {
			let line = 0;
			// A pass that only reads: LevelDB lets go of the tables behind it (readPass), or the RSS keeps them all.
			for await (const [url, record] of store.readPass?.() ?? store.entries()) {
				if (!isDue(record, options.ttlMs, options.now)) continue;
				const waiting = options.ready?.();
				if (waiting) await waiting;
				const origin = new URL(probeTarget(url, record)).origin;
				await book.load([origin]);
				yield { line: line++, input: url, url, origin, record };
			}
		})(),
	);
	// The sample a run checks anyway is left out (random() is never under it): it is random.
	return tasks.pipe(
		signalGate({ verifyEveryMs: options.verifyEveryMs }, { book, clock, random: () => 1 }),
		// A URL the budget held comes with how it ranked, its record long dropped: the list holds O(budget) URLs and no record.
		rankedBudget(
			{ ...options },
			{ clock, ...(options.ready ? { acquire: options.ready } : {}), out: (task, rank) => entryOf(task, rank ?? rankOf(task, options)) },
		),
	);
}

/** How a URL the budget did not hold (no budget, or skipped on a signal) ranks, from its record. */
function rankOf(task: Task, options: DueListOptions): Rank {
	const candidate = budgetCandidate(task.record!, task.origin!, task, options.verifyEveryMs, options.now);
	return { tier: candidate.tier, value: candidate.value, rate: candidate.rate!, lastChecked: task.record!.lastChecked };
}

function entryOf(task: Task, rank: Rank): DueRow {
	return {
		url: task.url!,
		rate: rank.rate,
		lastChecked: new Date(rank.lastChecked).toISOString(),
		tier: rank.tier,
		value: Number.isFinite(rank.value) ? Number(rank.value.toPrecision(4)) : null,
		later: task.skip === 'later',
		...(task.skip === 'signal' ? { skip: 'signal' as const } : {}),
	};
}
