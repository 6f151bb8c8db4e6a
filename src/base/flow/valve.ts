import { OptionError } from '../errors/index.js';
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
	/**
	 * Parks an item that stays in flight but is held up elsewhere (its host is down,
	 * slow or rate-limited): its credit is given back, so the source can go on, as long
	 * as fewer than `highWater × PARK_WINDOWS` items are parked. Returns whether it was
	 * parked; a parked item leaves through `unpark()` instead of `release()`.
	 */
	park(): boolean;
	unpark(): void;
	readonly inFlight: number;
}

/** How many windows' worth of items may be parked at once: the bound on memory that parking adds. */
export const PARK_WINDOWS = 32;

export function createValve(highWater: number): Valve {
	if (!Number.isInteger(highWater) || highWater < 1) {
		throw new OptionError('highWater', `Expected highWater to be a positive integer, got ${highWater}`);
	}
	const parkLimit = highWater * PARK_WINDOWS;
	let parked = 0;
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
		park() {
			if (parked >= parkLimit) return false;
			parked++;
			this.release();
			return true;
		},
		unpark() {
			parked--;
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
