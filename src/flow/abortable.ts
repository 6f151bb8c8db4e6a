import { Observable } from 'rxjs';

/**
 * Runs `work` when subscribed and aborts it on unsubscribe, but only while it is still
 * pending: RxJS runs the teardown on completion too, and aborting a settled request
 * costs a DOMException and listener traffic per URL.
 *
 * @example
 * mergeMap((task) => abortable((signal) => got(task.url, { signal })), 24)
 */
export function abortable<T>(work: (signal: AbortSignal) => Promise<T>): Observable<T> {
	return new Observable<T>((subscriber) => {
		const controller = new AbortController();
		let settled = false;
		work(controller.signal).then(
			(value) => {
				settled = true;
				subscriber.next(value);
				subscriber.complete();
			},
			(error: unknown) => {
				settled = true;
				if (!controller.signal.aborted) subscriber.error(error);
			},
		);
		return () => {
			if (!settled) controller.abort();
		};
	});
}
