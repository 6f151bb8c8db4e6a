import { Observable, type MonoTypeOperatorFunction } from 'rxjs';

export interface InOrderOptions {
	/**
	 * Start each item's work at once, while earlier work is still pending (for work whose
	 * effects keep their call order, such as a stream's writes); items still pass on in
	 * source order, each once its own work and all earlier work are done.
	 */
	overlap?: boolean;
}

/**
 * Runs `work` for each item, one at a time and in source order, and passes the item on
 * once its work is done, like `concatMap(async …)`. `work` returns a promise when it has
 * something to wait for (a write), or `undefined` when it has not; such an item, while no
 * earlier work is pending, goes straight through without a promise, an inner
 * subscription or a microtask. In a sweep where most URLs are unchanged and print
 * nothing, that is most items. A failed `work` errors the stream; completion, and an
 * error from upstream, wait for pending work.
 *
 * @example
 * tasks$.pipe(inOrder((task) => (task.verdict?.changed ? write(`${task.url}\n`) : undefined)))
 */
export function inOrder<T>(work: (item: T) => Promise<void> | undefined, options: InOrderOptions = {}): MonoTypeOperatorFunction<T> {
	const overlap = options.overlap === true;
	return (source) =>
		new Observable<T>((subscriber) => {
			// The end of the chain of pending work, or undefined when nothing is pending.
			let tail: Promise<void> | undefined;
			let queued = 0;
			let failed = false;
			const fail = (error: unknown): void => {
				if (failed) return;
				failed = true;
				subscriber.error(error);
			};
			const passOn = (item: T): void => {
				if (failed) return;
				subscriber.next(item);
				if (--queued === 0) tail = undefined;
			};
			const subscription = source.subscribe({
				next(item) {
					if (failed) return;
					if (tail === undefined || overlap) {
						let started: Promise<void> | undefined;
						try {
							started = work(item);
						} catch (error) {
							return fail(error);
						}
						if (started === undefined && tail === undefined) return subscriber.next(item);
						queued++;
						const before = tail;
						tail = (before === undefined ? started! : started === undefined ? before : Promise.all([before, started])).then(() => passOn(item));
					} else {
						queued++;
						// Work starts only when the previous item's is done: a writer need not be re-entrant.
						tail = tail.then(() => work(item)).then(() => passOn(item));
					}
					tail.catch(fail);
				},
				// Work already started finishes first: what it does (a write, a record made ready to
				// commit) must not be lost with the stream.
				error(error: unknown) {
					if (tail === undefined) return fail(error);
					tail.then(
						() => fail(error),
						() => fail(error),
					);
				},
				complete() {
					if (tail === undefined) return subscriber.complete();
					tail.then(
						() => subscriber.complete(),
						() => {},
					);
				},
			});
			return () => subscription.unsubscribe();
		});
}
