import { watchInterval, type IntervalBounds } from '../domain/schedule/due-time.js';
import { estimateRate } from '../domain/schedule/rate.js';
import type { HostRecord } from '../store/model/types.js';
import type { DueEntry } from '../store/model/due.js';
import type { Task } from '../domain/task/types.js';

/** Reasons that say the check did not happen: the URL comes back soon, not after a whole interval. */
const RETRY_REASONS: ReadonlySet<string> = new Set(['error', 'deferred']);
/** The longest a failed check waits to be tried again (schedule ms), before jitter. */
const RETRY_MS = 3_600_000;
/**
 * How far into its interval a URL must be before a free slot may pull it ahead. Without it,
 * while μ falls (a new watch learning its rates), the URLs checked last have the earliest
 * due times, since theirs came from the lowest μ, and pull-ahead took the same few again
 * and again at --min-interval, for days, filling their histories with checks an hour
 * apart (bench/WATCH.md). Three quarters: the model's best on three seeds, with the rate
 * still spent.
 */
export const AHEAD_SHARE = 0.75;

/**
 * When a URL the watch has just judged is due again: its interval at threshold μ from its
 * estimated rate (`watchInterval`), after its last check. A trusted max-age that says the
 * answer stays fresh longer moves it later, as in the budget. A check that did not happen
 * (an error, robots.txt deferred) comes back within an hour, with ±10% jitter so that the
 * retries of one outage don't all fall due at once. `notBefore` bounds pull-ahead: a URL
 * is claimed ahead of its due time no sooner than three quarters of its interval (and the
 * shortest interval) after its check, and a retry or a URL a trusted max-age holds not at all.
 *
 * @example
 * nextDue(task, 0.1, WATCH_INTERVALS, host, Date.now(), Math.random) // { url, origin, due, rate, notBefore }
 */
export function nextDue(task: Task, mu: number, bounds: IntervalBounds, host: HostRecord | undefined, now: number, random: () => number): DueEntry | undefined {
	if (task.url === undefined || task.origin === undefined) return undefined;
	const record = task.next ?? task.record;
	const rate = record?.rate ?? estimateRate(record?.checks);
	const interval = watchInterval(rate, mu, record?.checks?.length ?? 0, bounds);
	const reason = task.verdict?.reason;
	if (reason !== undefined && RETRY_REASONS.has(reason)) {
		const due = now + Math.min(interval, RETRY_MS) * (0.9 + 0.2 * random());
		return { url: task.url, origin: task.origin, rate, due, notBefore: due };
	}
	const since = record?.lastChecked ?? now;
	const due = Math.max(now, since + interval);
	if (host?.maxAge?.trusted && record?.freshUntil !== undefined && record.freshUntil > due)
		return { url: task.url, origin: task.origin, rate, due: record.freshUntil, notBefore: record.freshUntil };
	return { url: task.url, origin: task.origin, rate, due, notBefore: Math.max(now, since) + Math.max(bounds.minMs, AHEAD_SHARE * interval) };
}
