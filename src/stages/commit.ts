import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { StoreOperation, StoreWriter } from '../store/model/types.js';
import { openedStore } from '../store/given.js';
import type { Task } from '../domain/task/types.js';
import { positiveInteger } from '../base/util/checks.js';

export interface CommitOptions {
	/** Records per store batch. */
	batchSize?: number;
	/** Longest a record waits for its batch, in ms. */
	maxWaitMs?: number;
	/** More operations to write with each batch (the host book's changes). */
	extra?: () => StoreOperation[];
	/**
	 * A batch takes the records of every task passed downstream so far (`flushing`), and
	 * is written (`written`), in that order, batch after batch: what follows a task may
	 * wait for its record to be stored (a watch reschedules a URL only then).
	 */
	flushing?: () => void;
	written?: () => void;
	/** Writes a batch in place of the store's `batch` (a watch writes its reschedules in it). */
	write?: (operations: StoreOperation[]) => Promise<void>;
}

/**
 * Passes each task downstream first, then writes its `next` record to the store in
 * batches. Placed after `emit`, this means state is committed only once its verdict
 * is out: a run killed at any moment loses nothing, and the next run re-reports
 * whatever was not yet shown. Completes after the last batch is written; a store
 * failure errors the stream (it is infrastructure, not a per-URL failure).
 *
 * @example
 * tasks$.pipe(emit({}, targets), commit({ batchSize: 500 }, store))
 */
export function commit(options: CommitOptions = {}, store: StoreWriter): MonoTypeOperatorFunction<Task> {
	openedStore(store, options.write ? [] : ['batch']);
	const batchSize = positiveInteger('batchSize', options.batchSize ?? 500);
	const maxWaitMs = positiveInteger('maxWaitMs', options.maxWaitMs ?? 200);

	return (source) =>
		new Observable<Task>((subscriber) => {
			let pending: StoreOperation[] = [];
			let writing: Promise<void> = Promise.resolve();
			let timer: NodeJS.Timeout | undefined;
			let failed = false;

			const flush = (): Promise<void> => {
				clearTimeout(timer);
				timer = undefined;
				const operations = options.extra ? [...pending, ...options.extra()] : pending;
				pending = [];
				options.flushing?.();
				if (operations.length > 0) {
					writing = writing.then(() => (options.write ? options.write(operations) : store.batch(operations)));
					if (options.written) writing = writing.then(options.written);
				} else if (options.written) writing = writing.then(options.written);
				if (operations.length > 0) {
					writing.catch((error: unknown) => {
						if (!failed) {
							failed = true;
							subscriber.error(error);
						}
					});
				}
				return writing;
			};

			const subscription = source.subscribe({
				next(task) {
					subscriber.next(task);
					if (task.next && task.url) pending.push({ type: 'put', key: task.url, value: task.next });
					for (const { key, value } of task.deliveries ?? []) pending.push({ type: 'putDelivery', key, value });
					if (pending.length >= batchSize) void flush();
					// A verdict without a record to store may still have changed its host's counters.
					else if (task.verdict) timer ??= setTimeout(() => void flush(), maxWaitMs);
				},
				error(error: unknown) {
					// Commit what was already shown before failing: it must not be re-reported as lost work.
					const fail = (): void => subscriber.error(error);
					flush().then(fail, fail);
				},
				complete() {
					flush().then(
						() => subscriber.complete(),
						() => {},
					);
				},
			});
			return () => {
				clearTimeout(timer);
				subscription.unsubscribe();
			};
		});
}
