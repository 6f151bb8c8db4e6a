import { type Observable, Subject } from 'rxjs';
import type { RunPlan } from '../pipelines/run.js';
import type { ClaimRef, DueClaims, DueEntry } from '../store/model/due.js';
import { createAnsweredBatch, createDoneBatch } from './claim-ends.js';

/** Longest a verdict's record waits for its batch (wall ms): its URL's claim ends only after. */
const COMMIT_WAIT_MS = 10;

/** The reschedules of a watch's checks on their way to the schedule: see `createReschedules`. */
export interface Reschedules {
	/** Fires when claims end, or give their place back: a dispatcher waiting for an origin's room claims again at once. */
	readonly freed: Observable<void>;
	/** A check is over: its claim's place goes back at once (`answered`), its next due time (`nextDue`, under the claim's token) waits for its record's batch. */
	checked(claim: ClaimRef | undefined, entry: DueEntry | undefined): void;
	/** The run's commit (`RunPlan.commit`): each batch of records takes the reschedules of its checks, and their claims end once it is written. */
	readonly commit: NonNullable<RunPlan['commit']>;
	/** Waits for the claims' ends sent so far (an epoch's last); a failed `done` is thrown. */
	flush(): Promise<void>;
}

/**
 * A URL is rescheduled only once its record is stored: a kill in between checks it again
 * soon, never leaves it scheduled without its record. So each check's next due time waits
 * for the commit's next batch (`awaiting`), goes with that batch once it is taken
 * (`stored`, in the order the batches are written), and its claim ends once the batch is
 * written: in the records' own write where the schedule can (LevelDB's `doneWith`: one
 * write, and a kill leaves both or neither), else by a `done` right after. On a shared
 * schedule each claim's place goes back to the fleet as soon as its check is over
 * (`answered`), not after its record is written.
 *
 * @example
 * const reschedules = createReschedules(queue);
 * runTasks(deps, { ...plan, commit: reschedules.commit }, summary).pipe(tap((task) => reschedules.checked(claims.ended(task.url), nextDue(task, …))));
 * await reschedules.flush();
 */
export function createReschedules(queue: DueClaims): Reschedules {
	const freed = new Subject<void>();
	const done = createDoneBatch(queue, () => freed.next());
	const answered = createAnsweredBatch(queue, () => freed.next());
	// Reschedules waiting for their records' batch (`awaiting`), and those of each batch taken and not yet written (`stored`;
	// `taken` once written with the records, where the schedule is in the store's own database).
	const awaiting: DueEntry[] = [];
	const stored: Array<{ entries: DueEntry[]; taken: boolean }> = [];
	return {
		freed,
		checked(claim, entry) {
			if (claim !== undefined) {
				if (entry) entry.token = claim.token;
				// Its requests are over: on a shared schedule its origin's place goes back to the fleet now, not after its record is written.
				answered.addAll([claim]);
			}
			if (entry) awaiting.push(entry);
		},
		commit: {
			flushing: () => stored.push({ entries: awaiting.splice(0), taken: false }),
			// Batches are written one after another, each after its `flushing`: the first not yet written is this one.
			write:
				queue.doneWith &&
				((operations) => {
					const batch = stored[0]!;
					batch.taken = true;
					return queue.doneWith!(batch.entries, operations);
				}),
			written: () => {
				const batch = stored.shift();
				if (batch?.taken) freed.next();
				else done.addAll(batch?.entries ?? []);
			},
			// Batches a few ms apart: an origin's claims end only once their records are written.
			maxWaitMs: COMMIT_WAIT_MS,
		},
		async flush() {
			await answered.flush();
			await done.flush();
		},
	};
}
