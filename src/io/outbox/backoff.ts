/** How long a failing target waits between attempts: see `backoffDelay`. */
export interface Backoff {
	/** The wait after the first failed attempt (ms), doubled after each one. */
	firstMs: number;
	/** The longest wait (ms): an hour by default. */
	capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { firstMs: 1000, capMs: 3_600_000 };

/** However long a target has been down, a wait this short is allowed: a target back after a short outage is used again within half a minute. */
const LEAST_SPAN_MS = 30_000;
/** The longest wait, as a fraction of the time the target has been down. */
const SPAN_FRACTION = 1 / 20;

/**
 * The wait before the next attempt after `failures` failed attempts in a row over
 * `downMs`: exponential from `firstMs`, at most `capMs`, and at most a twentieth of the
 * time the target has been down (never under 30 s for that bound). A target back after
 * ten minutes is tried again within half a minute; one back after a day, within the hour.
 *
 * @example
 * backoffDelay(3, 10_000, DEFAULT_BACKOFF) // 4000
 * backoffDelay(20, 600_000, DEFAULT_BACKOFF) // 30000
 */
export function backoffDelay(failures: number, downMs: number, backoff: Backoff = DEFAULT_BACKOFF): number {
	const exponential = backoff.firstMs * 2 ** Math.min(40, Math.max(0, failures - 1));
	return Math.min(backoff.capMs, exponential, Math.max(LEAST_SPAN_MS, downMs * SPAN_FRACTION));
}
