import { Observable, type MonoTypeOperatorFunction } from 'rxjs';

/**
 * `mergeMap` for async work on each item, at most `concurrency` at once, with results
 * emitted as they settle. `work` gets an AbortSignal that is aborted when the output is
 * unsubscribed while the work is still pending. When `work` returns `undefined` the item
 * needs no work and goes straight through, taking no slot.
 *
 * It does what `mergeMap((item) => new Observable(…AbortController…), concurrency)` did
 * with less per item: no inner Observable and subscriber, no abort of settled work (RxJS
 * runs a teardown on completion too, and an abort builds a DOMException), and no
 * search of the outer subscription's finalizers (O(concurrency)) when an item is done.
 * A rejected `work` errors the stream, so per-item failures must resolve as data.
 *
 * @example
 * tasks$.pipe(mergeAsync((task, signal) => (task.skip ? undefined : probe(task, signal)), 256))
 */
export function mergeAsync<T>(work: (item: T, signal: AbortSignal) => Promise<T> | undefined, concurrency: number): MonoTypeOperatorFunction<T> {
	if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`Expected concurrency to be a positive integer, got ${concurrency}`);
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
				const controller = new AbortController();
				let pending: Promise<T> | undefined;
				try {
					pending = work(item, controller.signal);
				} catch (error) {
					subscriber.error(error);
					return;
				}
				if (pending === undefined) {
					subscriber.next(item);
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
