/**
 * How long to wait before retry number `attempt` (1-based): the server's Retry-After
 * (seconds or HTTP-date) when given, else exponential backoff with jitter. Returns
 * `undefined` when Retry-After asks for longer than `maxRetryAfterMs`: waiting that
 * long would stall the run, so the URL gets an error verdict instead.
 *
 * @example
 * retryDelay({ attempt: 1, retryAfter: '2', baseMs: 1000, maxRetryAfterMs: 60000, now: 0, random: 0.5 }) // 2000
 */
export function retryDelay(input: {
	attempt: number;
	retryAfter?: string | undefined;
	baseMs: number;
	maxRetryAfterMs: number;
	now: number;
	random: number;
}): number | undefined {
	const asked = parseRetryAfter(input.retryAfter, input.now);
	if (asked !== undefined) return asked > input.maxRetryAfterMs ? undefined : asked;
	const backoff = input.baseMs * 2 ** (input.attempt - 1);
	return Math.round(backoff * (0.5 + input.random / 2));
}

/** Retry-After in ms from now, or undefined when absent or unparseable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
