import type { ClaimRef, DueEntry, DueQueue } from '../store/due/types.js';

// How a watch ends its claims on the schedule: each check's `done` once its record is
// written, and on a shared schedule its place under --per-host as soon as its requests
// are over (`answered`). Both batch the calls of one turn of the event loop.

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
export function createDoneBatch(queue: DueQueue, written: () => void): { addAll(entries: readonly DueEntry[]): void; flush(): Promise<void> } {
	let pending: DueEntry[] = [];
	let writing: Promise<void> | undefined;
	let failure: unknown;
	const drain = async (): Promise<void> => {
		try {
			await new Promise((resolve) => setImmediate(resolve));
			while (pending.length > 0) {
				const batch = pending;
				pending = [];
				await queue.done(batch);
				written();
			}
		} catch (error) {
			failure ??= error;
		} finally {
			// Cleared in the same step as the last look at `pending`: an entry added after it starts a new write.
			writing = undefined;
		}
	};
	const flush = (): Promise<void> => {
		if (failure !== undefined) return Promise.reject(failure);
		writing ??= drain();
		return writing.then(() => (failure === undefined ? undefined : Promise.reject(failure)));
	};
	return {
		addAll(entries) {
			if (entries.length === 0) return;
			pending.push(...entries);
			flush().catch(() => {});
		},
		flush,
	};
}

/**
 * Tells a shared schedule which claims' requests are over (`DueQueue.answered`), those of
 * one turn of the event loop in one call, and those that come while it is under way in
 * the next; `written` after each. A failed call is let go: those claims' places come
 * back at their `done`, later but no less safe. Nothing where the schedule has no
 * `answered` (one process holds it).
 *
 * @example
 * const answered = createAnsweredBatch(queue, () => freed.next());
 * answered.add({ url, token });
 */
export function createAnsweredBatch(queue: DueQueue, written: () => void): { add(ref: ClaimRef): void; settled(): Promise<void> } {
	let pending: ClaimRef[] = [];
	let writing: Promise<void> | undefined;
	const drain = async (): Promise<void> => {
		await new Promise((resolve) => setImmediate(resolve));
		while (pending.length > 0) {
			const batch = pending;
			pending = [];
			await queue.answered!(batch).then(written, () => {});
		}
		writing = undefined;
	};
	return {
		add(ref) {
			if (!queue.answered) return;
			pending.push(ref);
			writing ??= drain();
		},
		settled: () => writing ?? Promise.resolve(),
	};
}
