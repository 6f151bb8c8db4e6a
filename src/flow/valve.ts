/**
 * Credit-based backpressure for a push stream. RxJS has none of its own, so the source
 * awaits `acquire()` before emitting each item and the end of the pipeline calls
 * `release()` for each item that leaves; at most `highWater` items are ever in between.
 *
 * @example
 * const valve = createValve(2048);
 * for await (const line of lines) { await valve.acquire(); subscriber.next(line); }
 * // ...downstream: tap(() => valve.release())
 */
export interface Valve {
	acquire(): Promise<void>;
	/** Takes a credit if one is free, without waiting: no promise, no microtask. */
	tryAcquire(): boolean;
	release(): void;
	readonly inFlight: number;
}

export function createValve(highWater: number): Valve {
	if (!Number.isInteger(highWater) || highWater < 1) {
		throw new TypeError(`Expected highWater to be a positive integer, got ${highWater}`);
	}
	let inFlight = 0;
	let waiting: Array<() => void> = [];
	const resolved = Promise.resolve();

	return {
		get inFlight() {
			return inFlight;
		},
		tryAcquire() {
			if (inFlight >= highWater || waiting.length > 0) return false;
			inFlight++;
			return true;
		},
		acquire() {
			if (inFlight < highWater) {
				inFlight++;
				return resolved;
			}
			return new Promise<void>((resolve) => {
				waiting.push(() => {
					inFlight++;
					resolve();
				});
			});
		},
		release() {
			inFlight--;
			if (waiting.length > 0 && inFlight < highWater) {
				const [next, ...rest] = waiting;
				waiting = rest;
				next!();
			}
		},
	};
}
