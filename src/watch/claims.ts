import type { CheckOptions } from '../pipelines/sweep-options.js';
import type { ClaimRef, DueClaims, DueEntry } from '../store/model/due.js';
import { createHostThresholds } from './host-threshold.js';
import type { WatchObserver } from './run.js';
import type { Sayings } from './say.js';
import type { Threshold } from './threshold.js';

/**
 * Claims held per origin, as a multiple of --per-host, on a schedule one process holds:
 * the run's limiter keeps --per-host requests in flight, and the claims beyond them wait
 * in the pipeline (its store read, robots.txt), so that an origin's next request is ready
 * when one ends. On a shared schedule (Redis) the claims are the fleet-wide limit: 1, each
 * counted until its requests are over (`DueQueue.answered`); a process then holds up to
 * this many times --concurrency claims, those past its requests in flight being written.
 */
const CLAIMS_PER_PLACE = 2;

/** The URLs a watch has claimed, from their claim to the end of their check: see `createClaims`. */
export interface Claims {
	/**
	 * Origins spaced by a gap (--host-rate, Crawl-delay), added by the run's limiter (`gapsToQueue`):
	 * where politeness binds, so where an origin's own threshold may rise.
	 */
	readonly spaced: Set<string>;
	/** A URL claimed at `now` (schedule ms): dispatch's hook. */
	claimed(entry: DueEntry, now: number): void;
	/** The threshold a URL of `origin` is rescheduled at: μ, times its origin's own factor where its claims run late. */
	mu(origin: string | undefined): number;
	/** A URL's check is over: its claim (URL and token) taken back, to end on the schedule; undefined where its claim had no token. */
	ended(url: string | undefined): ClaimRef | undefined;
}

/**
 * The claims' bookkeeping: each claimed URL's token until its check is over (so that its
 * `done` ends that claim only), and the lateness of its claim, which feeds the threshold
 * (pull-ahead counted), the watch's own lines, the observer, and the per-origin
 * thresholds of origins whose politeness binds (every origin under --host-rate).
 *
 * @example
 * const claims = createClaims({ threshold, say, observer, hostGapMs });
 * dispatch(queue, valve, options, stop, claims); // claims.claimed(entry, now) for each URL
 * claims.ended(task.url); // { url, token }
 */
export function createClaims(context: {
	threshold: Pick<Threshold, 'mu' | 'dispatched'>;
	say: Pick<Sayings, 'claimed'>;
	observer?: WatchObserver | undefined;
	hostGapMs?: number | undefined;
}): Claims {
	const { threshold, say } = context;
	// Each claimed URL's claim token, until its check is over.
	const tokens = new Map<string, string>();
	const hosts = createHostThresholds();
	const spaced = new Set<string>();
	return {
		spaced,
		claimed(entry, now) {
			if (entry.token !== undefined) tokens.set(entry.url, entry.token);
			threshold.dispatched(1, entry.due - now);
			say.claimed();
			// Lateness anywhere else is the global rate's, which μ answers for.
			if (context.hostGapMs !== undefined || spaced.has(entry.origin)) hosts.claimed(entry.origin, now - entry.due);
			context.observer?.late?.(Math.max(0, now - entry.due) / 1000);
		},
		mu: (origin) => threshold.mu * (origin === undefined ? 1 : hosts.factor(origin)),
		ended(url) {
			if (url === undefined) return undefined;
			const token = tokens.get(url);
			tokens.delete(url);
			return token === undefined ? undefined : { url, token };
		},
	};
}

/**
 * How many claims a watch holds: the run's options with its lines in flight bounded on a
 * shared schedule (a process holds no more claims than it has requests in flight, and as
 * many again being written, their places given back by `answered`: the fleet-wide
 * --per-host places go to whoever can use them, not to the first to claim), and the claims
 * dispatch holds per origin.
 *
 * @example
 * const limits = claimLimits(queue, options); // { options: { ...options, highWater: 12 }, perHost: 1 } on Redis
 */
export function claimLimits<T extends Pick<CheckOptions, 'concurrency' | 'perHost' | 'highWater'>>(
	queue: Pick<DueClaims, 'shared' | 'answered'>,
	options: T,
): { options: T; perHost: number } {
	return {
		options: queue.shared ? { ...options, highWater: options.concurrency * (queue.answered ? CLAIMS_PER_PLACE : 1) } : options,
		perHost: options.perHost * (queue.shared ? 1 : CLAIMS_PER_PLACE),
	};
}
