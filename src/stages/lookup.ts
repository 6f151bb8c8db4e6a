import { bufferTime, concatMap, filter, mergeMap, type MonoTypeOperatorFunction } from 'rxjs';
import type { HostBook } from '../net/hosts/book.js';
import { probeTarget } from '../net/http/target.js';
import { openedStore } from '../store/given.js';
import type { StoreReader } from '../store/model/types.js';
import type { Task } from '../domain/task/types.js';
import { positiveInteger } from '../base/util/checks.js';

export interface LookupOptions {
	/** Loaded with the hosts of each batch, so probes can consult their host's trust. */
	book?: HostBook;
	/** Most keys per `getMany`. */
	batchSize?: number;
	/** Longest a task waits for its batch to fill, in ms. */
	maxWaitMs?: number;
	/** `getMany` calls in flight at once. */
	concurrency?: number;
}

/**
 * Attaches each task's stored record (`null` when never seen) and the origin its probe
 * will go to, reading the store in batches with `getMany`, and loads the batch's hosts
 * into the run's host book.
 *
 * @example
 * tasks$.pipe(lookup({ batchSize: 256 }, store))
 */
export function lookup(options: LookupOptions = {}, store: StoreReader): MonoTypeOperatorFunction<Task> {
	openedStore(store, ['getMany']);
	const batchSize = positiveInteger('batchSize', options.batchSize ?? 256);
	const maxWaitMs = positiveInteger('maxWaitMs', options.maxWaitMs ?? 5);
	const concurrency = positiveInteger('concurrency', options.concurrency ?? 4);
	const { book } = options;

	return (source) =>
		source.pipe(
			bufferTime(maxWaitMs, null, batchSize),
			filter((batch) => batch.length > 0),
			mergeMap(async (batch) => {
				const live = batch.filter((task) => !task.skip && task.url !== undefined);
				const records = await store.getMany(live.map((task) => task.url!));
				const origins = new Set<string>();
				live.forEach((task, i) => {
					const record = records[i] ?? null;
					task.record = record;
					// The origin the probe will go to: normalise's, unless a permanent redirect moved the target.
					const target = probeTarget(task.url!, record);
					if (target !== task.url || task.origin === undefined) task.origin = new URL(target).origin;
					origins.add(task.origin);
				});
				if (book) await book.load([...origins]);
				return batch;
			}, concurrency),
			concatMap((batch) => batch),
		);
}
