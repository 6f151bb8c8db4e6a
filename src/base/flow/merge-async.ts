import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { OptionError } from '../errors/index.js';

/** The work started for one item: it settles with the item as it goes on. */
export type AsyncWork<T> = (signal: AbortSignal) => Promise<T>;

/**
 * `mergeMap` for async work on each item, at most `concurrency` at once, with results
 * emitted as they settle. `work` looks at an item and returns either `undefined` (the item
 * needs no work and goes straight through, taking no slot) or a function that starts the
 * work; that function gets an AbortSignal that is aborted when the output is unsubscribed
 * while the work is still pending. The split is there because most items of a sweep pass
 * most stages at once, and an AbortController made for each of them cost 5–8 µs per URL.
 *
 * It does what `mergeMap((item) => new Observable(…AbortController…), concurrency)` did
 * with less per item: no inner Observable and subscriber, no abort of settled work (RxJS
 * runs a teardown on completion too, and an abort builds a DOMException), and no
 * search of the outer subscription's finalizers (O(concurrency)) when an item is done.
 * A rejected or throwing `work` errors the stream, so per-item failures must resolve as data.
 *
 * @example
 * tasks$.pipe(mergeAsync((task) => (task.skip ? undefined : (signal) => probe(task, signal)), 256))
 */
export function mergeAsync<T>(work: (item: T) => AsyncWork<T> | undefined, concurrency: number): MonoTypeOperatorFunction<T> {
	if (!Number.isInteger(concurrency) || concurrency < 1)
		throw new OptionError('concurrency', `Expected concurrency to be a positive integer, got ${concurrency}`);
	return (source) =>
		new Observable<T>((subscriber) => {
			const running = new Set<AbortController>();
			const waiting: T[] = [];
			let head = 0;
			let sourceDone = false;

			const settleNext = (): void => {
				while (head < waiting.length && running.size < concurrency && !subscriber.closed) {
					const item = waiting[head]!;
					waiting[head++] = undefined as T;
					start(item);
				}
				if (head === waiting.length) {
					waiting.length = 0;
					head = 0;
				}
				if (sourceDone && running.size === 0 && waiting.length === 0) subscriber.complete();
			};

			const start = (item: T): void => {
				let controller: AbortController;
				let pending: Promise<T>;
				try {
					const begin = work(item);
					if (begin === undefined) {
						subscriber.next(item);
						return;
					}
					controller = new AbortController();
					pending = begin(controller.signal);
				} catch (error) {
					subscriber.error(error);
					return;
				}
				running.add(controller);
				pending.then(
					(value) => {
						if (!running.delete(controller)) return;
						subscriber.next(value);
						settleNext();
					},
					(error: unknown) => {
						if (running.delete(controller)) subscriber.error(error);
					},
				);
			};

			const subscription = source.subscribe({
				next(item) {
					if (running.size < concurrency) start(item);
					else waiting.push(item);
				},
				error: (error: unknown) => subscriber.error(error),
				complete() {
					sourceDone = true;
					settleNext();
				},
			});

			return () => {
				subscription.unsubscribe();
				// Only work still pending is aborted; settled work has already left the set.
				for (const controller of running) controller.abort();
				running.clear();
				waiting.length = 0;
			};
		});
}
