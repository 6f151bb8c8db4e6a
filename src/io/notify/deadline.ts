/** A signal that aborts at a deadline or with the caller's; `clear()` once the work is done. */
export interface Deadline {
	signal: AbortSignal;
	clear(): void;
}

/**
 * The error an abort by the caller (a run being stopped) rejects a delivery with.
 *
 * @example
 * stoppedError() // Error: delivery stopped
 */
export const stoppedError = (): Error => new Error('delivery stopped');

/**
 * A signal for one delivery attempt: aborted with `WHAT did not finish within MS ms` when
 * `ms` pass, or with `delivery stopped` when `outer` aborts (already aborted: at once).
 * The timer and the listener on `outer` go with `clear()`, so that a finished attempt
 * holds nothing that keeps the process up.
 *
 * @example
 * const deadline = startDeadline(15_000, 'mail server smtp.example.org:587', signal);
 * try { await work(deadline.signal) } finally { deadline.clear() }
 */
export function startDeadline(ms: number, what: string, outer?: AbortSignal): Deadline {
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(new Error(`${what} did not finish within ${ms} ms`)), ms);
	const onStop = () => controller.abort(stoppedError());
	outer?.addEventListener('abort', onStop, { once: true });
	if (outer?.aborted) onStop();
	return {
		signal: controller.signal,
		clear() {
			clearTimeout(timer);
			outer?.removeEventListener('abort', onStop);
		},
	};
}

/**
 * Runs `work` under a deadline (see startDeadline) and rejects with the deadline's or the
 * stop's error as soon as the signal aborts, whatever `work` then does with it: `work`
 * is to close its connection on the signal, but does not hold the caller up doing so.
 *
 * @example
 * await withDeadline(15_000, 'ntfy.sh', signal, (aborted) => got(url, { signal: aborted }))
 */
export async function withDeadline<T>(ms: number, what: string, outer: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const deadline = startDeadline(ms, what, outer);
	const { signal } = deadline;
	const aborted = new Promise<never>((_, reject) => {
		if (signal.aborted) reject(signal.reason as Error);
		else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
	});
	try {
		return await Promise.race([aborted, work(signal)]);
	} finally {
		deadline.clear();
	}
}
