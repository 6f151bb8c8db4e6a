/**
 * The watch schedule (`revisit watch`): when each URL is next due, kept in the store
 * beside its record, so that memory stays bounded however many URLs are watched and a
 * restart (even after kill -9) finds every URL still scheduled.
 *
 * Times are in the schedule's clock (epoch ms; see `QueueClock`). Every backend keeps the
 * same structures, after URLFrontier and Mercator: the URLs of each origin ordered by
 * due time, the origins ordered by when each may next be asked, and leases on the URLs
 * claimed and not yet done.
 */

import { StoreError } from '../../base/errors/index.js';
import type { StoreOperation } from './types.js';

/** One URL's place in the schedule. */
export interface DueEntry {
	url: string;
	/** Its origin (scheme, host, port): politeness is per origin. */
	origin: string;
	/** When it is next due, schedule-clock epoch ms. */
	due: number;
	/** Its estimated change rate (changes per day), for the rate histogram the threshold is solved over. */
	rate: number;
	/** Not claimed ahead of its due time before this (schedule-clock ms): its last check + the shortest interval. Absent: any time. */
	notBefore?: number | undefined;
	/**
	 * The claim it was handed out under, set by `claim` and `claimAhead`. Given back to
	 * `done` or `release`, it ends that claim only: a process whose lease ran out, and whose
	 * URL another process has claimed since, cannot end the other's claim. Absent: any claim.
	 */
	token?: string | undefined;
}

/** A claimed URL as `release` takes it: the URL and, where the claim gave one, its token. */
export type ClaimRef = Pick<DueEntry, 'url' | 'token'>;

/** How the schedule's clock relates to the wall clock: at wall time `wall0` it read `at0`, and it runs `scale` times faster. */
export interface QueueClock {
	at0: number;
	wall0: number;
	scale: number;
}

export interface ClaimOptions {
	/** Most URLs to claim in this call. */
	max: number;
	/** Most URLs claimed and not done per origin (across every process sharing the store). */
	perHost: number;
	/** How long a claim holds before its URL returns to the schedule (schedule-clock ms): a process killed mid-check loses nothing. */
	leaseMs: number;
	/** Checks per schedule-clock ms over every process sharing the store; the claims are spaced to it. */
	rate: number;
	/** How many checks' worth of unused rate may be spent at once (at least 1). */
	burst: number;
}

/** What a claim returns: the URLs, and the schedule's time as the queue read it. */
export interface Claim {
	now: number;
	entries: DueEntry[];
}

/** The schedule's size, as `/metrics` shows it. */
export interface QueueStats {
	/** URLs in the schedule. */
	size: number;
	/** Of them, due by now and not claimed: the backlog. */
	backlog: number;
	/** Claimed and not done. */
	claimed: number;
	/** Origins with URLs in the schedule. */
	hosts: number;
	/** The earliest due time of an unclaimed URL; undefined when there is none. */
	next?: number | undefined;
	/** The origins with the deepest backlog, deepest first, at most DEPTH_ORIGINS of them. */
	depths?: Array<{ origin: string; depth: number }> | undefined;
}

/** How many origins `QueueStats.depths` names. */
export const DEPTH_ORIGINS = 20;

/**
 * The backlog is counted up to this many URLs (a count over 100,000 due URLs is "at least
 * 100,000"): on LevelDB, counting is reading every key; a Redis shard counts as far.
 */
export const BACKLOG_COUNTED = 100_000;

/** Log-spaced bins of change rates (changes per day), from 1e-4 to 1e3, for `rateBins`. */
export const RATE_BINS = 140;
const LOG_LOW = Math.log(1e-4);
const LOG_HIGH = Math.log(1e3);

/**
 * The bin a rate falls in.
 *
 * @example
 * rateBin(1) // 80
 */
export function rateBin(rate: number): number {
	const position = (Math.log(Math.min(1e3, Math.max(1e-4, rate))) - LOG_LOW) / (LOG_HIGH - LOG_LOW);
	return Math.min(RATE_BINS - 1, Math.floor(position * RATE_BINS));
}

/**
 * The rate at the middle of a bin (geometric).
 *
 * @example
 * binRate(rateBin(1)) // about 1
 */
export function binRate(bin: number): number {
	return Math.exp(LOG_LOW + ((bin + 0.5) / RATE_BINS) * (LOG_HIGH - LOG_LOW));
}

/** The URLs in the schedule, and when each is due. */
export interface DueEntries {
	/** Adds URLs to the schedule, or moves them (a claimed URL keeps its claim). */
	put(entries: readonly DueEntry[]): Promise<void>;
	/** Takes URLs out of the schedule (a claimed one too: its `done` then puts nothing back). */
	remove(urls: readonly string[]): Promise<void>;
	/** Whether each URL is in the schedule. */
	has(urls: readonly string[]): Promise<boolean[]>;
}

/** Claims: URLs handed out to check, each until its `done` or `release` (or its lease), spaced per origin and to a rate. */
export interface DueClaims {
	/** Whether other processes may claim from this schedule (Redis): then `perHost` in claims is the only limit that holds across them all. */
	readonly shared: boolean;
	/**
	 * Claims URLs due by now, earliest first within each origin, from origins whose next
	 * allowed time has come and that have fewer than `perHost` claimed; spaced to `rate`.
	 * Each claimed origin's next allowed time becomes now + its gap. Claims whose lease
	 * ran out return to the schedule first.
	 */
	claim(options: ClaimOptions): Promise<Claim>;
	/**
	 * Pull-ahead: claims URLs not yet due, the earliest due first, with the slots of the
	 * rate that `claim` found nothing due for. The same pacing slot, `perHost` and gaps
	 * hold; a URL whose `notBefore` has not come is passed over. Call it after `claim`.
	 */
	claimAhead(options: ClaimOptions): Promise<Claim>;
	/** Ends claims: each URL due again at its entry's `due` (and rate); a URL removed meanwhile stays removed. */
	done(entries: readonly DueEntry[]): Promise<void>;
	/**
	 * Where the schedule is in the store's own database (LevelDB): ends claims as `done`
	 * does, in one write with `operations` on the store (the checked URLs' records), so that
	 * a kill leaves both or neither. Absent: write the records, then call `done`.
	 */
	doneWith?(entries: readonly DueEntry[], operations: readonly StoreOperation[]): Promise<void>;
	/**
	 * On a shared schedule (Redis): the requests of these claims are over (their verdicts
	 * are out, their records not yet written). Each claim's place under `perHost` comes back
	 * now, so that `perHost` counts requests in flight over the fleet rather than checks
	 * until their `done`; the claims themselves hold until `done` or `release` (or their
	 * lease). Absent where one process holds the schedule: its limiter holds `--per-host`.
	 */
	answered?(entries: readonly ClaimRef[]): Promise<void>;
	/** Ends claims without checking: the URLs keep the due time they had. */
	release(entries: readonly ClaimRef[]): Promise<void>;
	/** Sets the least time between two claims of an origin's URLs (schedule-clock ms; robots.txt's Crawl-delay). */
	gap(origin: string, ms: number): Promise<void>;
}

/** Origins' turns to send a request, over every process sharing the schedule. */
export interface DueTurns {
	/**
	 * Asks for `origin`'s turn to send a request, in wall ms, over every process sharing the
	 * schedule: politeness as the origin sees it, where a claim's spacing cannot reach (a
	 * request leaves its process some time after its claim). Granted (0) when no other
	 * `token` holds the turn and `gapMs` has passed since the origin's last `sent`; else the
	 * ms to wait before asking again. A granted turn holds until `sent`, or `holdMs`.
	 */
	turn(origin: string, gapMs: number, holdMs: number, token: string): Promise<number>;
	/** The request of `token`'s turn is on the wire (or given up): the origin's next turn comes `gapMs` after now. */
	sent(origin: string, gapMs: number, token: string): Promise<void>;
}

/** What each input listed, so that a URL no input lists any more leaves the schedule. */
export interface DueListings {
	/**
	 * Notes that an input (`source`: a file's path, a sitemap's URL) listed these URLs in
	 * its reading number `generation`; `sweepOut` then takes out what a later reading no
	 * longer lists. Only the listing is kept: the URLs are scheduled with `put`.
	 */
	mark(source: string, urls: readonly string[], generation: number): Promise<void>;
	/**
	 * Takes out of `source`'s listing every URL it listed before `generation` and not
	 * since, and out of the schedule those no other source lists; returns the latter.
	 */
	sweepOut(source: string, generation: number): Promise<string[]>;
}

/** The schedule's size and its change rates, for `/metrics` and the threshold. */
export interface DueStats {
	/** URLs in the schedule per rate bin (`rateBin`), RATE_BINS long. */
	rateBins(): Promise<number[]>;
	stats(): Promise<QueueStats>;
}

/** What the schedule keeps beside its URLs: its clock, and values saved for a restart. */
export interface DueState {
	/** A value kept with the schedule under `name` (the watch's threshold), as last `save`d; undefined for none. */
	saved(name: string): Promise<unknown>;
	/** Keeps a JSON value with the schedule under `name`, for a restart (even after kill -9) to read back. */
	save(name: string, value: unknown): Promise<void>;
	/** The time on the queue's clock. */
	now(): Promise<number>;
	/**
	 * The schedule's clock kept with the schedule, so that every process sharing it (and a
	 * restart) reads one clock: the stored one when there is one, else `clock`, stored;
	 * with `reset`, `clock` replaces the stored one. The queue runs on the clock returned.
	 * Throws STORE_CLOCK when the stored clock runs at another scale and `reset` is off.
	 */
	adoptClock(clock: QueueClock, reset: boolean): Promise<QueueClock>;
}

/**
 * The watch schedule of one store (see the top of this file), in its parts: a caller
 * takes the parts it uses. Every method is atomic on its own; on Redis, any number of
 * processes may share one queue. Every backend's schedule has every part and runs
 * test/store/due-contract.ts; `doneWith` and `answered` are there where the backend can
 * do what they say (the contract's options name which).
 *
 * @example
 * const queue = store.dueQueue({ at0: Date.now(), wall0: Date.now(), scale: 1 });
 * await queue.put([{ url, origin, due: Date.now(), rate: 0.25 }]);
 * const { entries } = await queue.claim({ max: 10, perHost: 2, leaseMs: 60_000, rate: 0.01, burst: 10 });
 * await queue.done(entries.map((entry) => ({ ...entry, due: entry.due + 86_400_000 })));
 */
export interface DueQueue extends DueEntries, DueClaims, DueTurns, DueListings, DueStats, DueState {}

/**
 * The clock to keep: `stored` unless there is none or `reset`; a stored clock at another
 * scale is refused without `reset`, since the schedule's times would mean something else.
 *
 * @example
 * chooseClock(undefined, { at0: 0, wall0: 0, scale: 1 }, false) // the proposed clock
 */
export function chooseClock(stored: QueueClock | undefined, proposed: QueueClock, reset: boolean): QueueClock {
	if (!stored || reset) return proposed;
	if (stored.scale !== proposed.scale) {
		throw new StoreError(
			'STORE_CLOCK',
			`this store's watch schedule runs ${stored.scale} times faster than the wall clock, not ${proposed.scale}: give --time-scale ${stored.scale}, ` +
				`or --now to start its clock again`,
		);
	}
	return stored;
}
