import type { ClaimRef, DueClaims, DueEntry } from '../store/model/due.js';

// How a watch ends its claims on the schedule: each check's `done` once its record is
// written, and on a shared schedule its place under --per-host as soon as its requests
// are over (`answered`). Both batch the calls of one turn of the event loop.

/** Calls batched per turn of the event loop: `addAll` queues, `flush` waits for what is queued to be sent. */
export interface CallBatch<T> {
	addAll(items: readonly T[]): void;
	flush(): Promise<void>;
}

/**
 * Batches `done` calls as a group commit: the verdicts of one turn of the event loop go
 * in one write, and those that come while it is under way in the next. A claim ends (and
 * its origin's room under --per-host comes back) one write after its verdict, not after a
 * timer. A failed write is thrown by the next `flush`. `written` is called after each
 * write (the claims it ended).
 *
 * @example
 * const done = createDoneBatch(queue, () => freed.next());
 * done.addAll(entries);
 * await done.flush();
 */
export function createDoneBatch(queue: DueClaims, written: () => void): CallBatch<DueEntry> {
	return batchCalls(async (batch) => {
		await queue.done(batch);
		written();
	});
}

/**
 * Tells a shared schedule which claims' requests are over (`DueQueue.answered`), batched
 * as `done` is; `written` after each call. A failed call is let go: those claims' places
 * come back at their `done`, later but no less safe. Nothing where the schedule has no
 * `answered` (one process holds it).
 *
 * @example
 * const answered = createAnsweredBatch(queue, () => freed.next());
 * answered.addAll([{ url, token }]);
 */
export function createAnsweredBatch(queue: DueClaims, written: () => void): CallBatch<ClaimRef> {
	const answered = queue.answered?.bind(queue);
	if (!answered) return { addAll: () => {}, flush: () => Promise.resolve() };
	return batchCalls((batch) => answered(batch).then(written, () => {}));
}

/**
 * Sends what is added in one turn of the event loop in one `send`, and what comes while
 * it is under way in the next. A failed `send` is thrown by every later `flush`.
 */
function batchCalls<T>(send: (batch: T[]) => Promise<void>): CallBatch<T> {
	let pending: T[] = [];
	let writing: Promise<void> | undefined;
	let failure: unknown;
	const drain = async (): Promise<void> => {
		try {
			await new Promise((resolve) => setImmediate(resolve));
			while (pending.length > 0) {
				const batch = pending;
				pending = [];
				await send(batch);
			}
		} catch (error) {
			failure ??= error;
		} finally {
			// Cleared in the same step as the last look at `pending`: an item added after it starts a new send.
			writing = undefined;
		}
	};
	const flush = (): Promise<void> => {
		if (failure !== undefined) return Promise.reject(failure);
		writing ??= drain();
		return writing.then(() => (failure === undefined ? undefined : Promise.reject(failure)));
	};
	return {
		addAll(items) {
			if (items.length === 0) return;
			pending.push(...items);
			flush().catch(() => {});
		},
		flush,
	};
}
