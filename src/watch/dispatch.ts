import { Observable } from 'rxjs';
import type { Valve } from '../base/flow/valve.js';
import type { InputLine } from '../domain/task/types.js';
import type { ClaimOptions, DueClaims, DueEntry } from '../store/model/due.js';
import { OptionError } from '../base/errors/index.js';

export interface DispatchOptions {
	/** Checks per schedule-clock ms (the `--rate`). */
	rate: number;
	/** Claims held per origin (the run's `--per-host`). */
	perHost: number;
	/** How long a claim holds (schedule ms) before its URL returns to the schedule. */
	leaseMs: number;
	/** Schedule ms to wall ms (`--time-scale`). */
	wallMs(scheduleMs: number): number;
	/** Stop claiming once the schedule's clock reaches this (`--until`). */
	until?: number | undefined;
	/** Fires when claims end (their `done` is written): a dispatcher waiting for an origin's room claims again at once. */
	freed?: Observable<unknown> | undefined;
}

export interface DispatchHooks {
	/** A URL claimed at `now` (schedule ms): its lateness is `now − entry.due` (negative when pulled ahead). */
	claimed?(entry: DueEntry, now: number): void;
}

/** Most URLs asked for in one claim: enough for 3,000 checks a second at one claim per 10 ms. */
const CLAIM_BATCH = 64;
/**
 * How much unused rate (wall ms of it) may be spent at once: after a stall (a slow store
 * write, a pause of the event loop) the URLs it made late are caught up within about
 * this, rather than staying late for good when URLs fall due at the rate itself. Short
 * enough that checks still go out evenly.
 */
const CATCH_UP_WALL_MS = 500;
/** The longest wait between two claims (wall ms): a URL that falls due is seen within it. */
const MAX_WAIT_MS = 200;
/**
 * With fewer free places than this in the run, the dispatcher waits GATHER_MS for more before it claims:
 * one claim (a store read and write) per few URLs, not per URL, when checks are the bottleneck.
 */
const GATHER = 16;
const GATHER_MS = 3;

/**
 * The watch's input: URLs claimed from the schedule as they fall due, each taken through
 * `valve` (so no more are claimed than the run has room for), as input lines for the
 * sweep's stages. Claims are spaced by the queue to the rate, so checks go out evenly,
 * not in bursts. A slot that finds nothing due takes the URL due soonest instead
 * (`claimAhead`; its lateness, now − due, is then negative). Completes when `stop` fires or the clock passes `until`; claims made
 * and not yet emitted are given back.
 *
 * @example
 * runTasks(deps, { input: (d, valve) => dispatch(queue, valve, options, stop$), ... }, summary)
 */
export function dispatch(
	queue: DueClaims,
	valve: Valve,
	options: DispatchOptions,
	stop: Observable<unknown>,
	hooks: DispatchHooks = {},
): Observable<InputLine> {
	if (!(options.rate > 0)) throw new OptionError('rate', `Expected a rate above 0, got ${options.rate}`);
	const claimOptions: ClaimOptions = {
		max: CLAIM_BATCH,
		perHost: options.perHost,
		leaseMs: options.leaseMs,
		rate: options.rate,
		burst: Math.max(1, options.rate * scheduleMsIn(options, CATCH_UP_WALL_MS)),
	};
	// A claim every slot, but never more often than every 5 ms nor less than MAX_WAIT_MS.
	const pause = Math.min(MAX_WAIT_MS, Math.max(5, options.wallMs(1 / options.rate)));
	return new Observable<InputLine>((subscriber) => {
		let stopped = false;
		let line = 0;
		let timer: NodeJS.Timeout | undefined;
		let wake: (() => void) | undefined;
		const stopping = stop.subscribe(() => finish());
		const waking = options.freed?.subscribe(() => wake?.());
		function finish(): void {
			if (stopped) return;
			stopped = true;
			clearTimeout(timer);
			wake?.();
		}
		const sleep = (ms: number): Promise<void> =>
			new Promise((resolve) => {
				wake = () => {
					clearTimeout(timer);
					wake = undefined;
					resolve();
				};
				timer = setTimeout(wake, ms);
			});
		const loop = async (): Promise<void> => {
			while (!stopped) {
				if (!valve.tryAcquire()) await valve.acquire();
				let credits = 1;
				while (credits < CLAIM_BATCH && valve.tryAcquire()) credits++;
				if (credits < GATHER && !stopped) {
					await sleep(GATHER_MS);
					while (credits < CLAIM_BATCH && valve.tryAcquire()) credits++;
				}
				if (stopped) return giveBack(valve, credits);
				const claim = await queue.claim({ ...claimOptions, max: credits });
				if (options.until !== undefined && claim.now >= options.until) {
					await queue.release(claim.entries);
					giveBack(valve, credits);
					return finish();
				}
				// Slots nothing due took go to the URLs due soonest (pull-ahead): the rate is spent whenever there is anything to check.
				const ahead = claim.entries.length < credits ? (await queue.claimAhead({ ...claimOptions, max: credits - claim.entries.length })).entries : [];
				const entries = ahead.length === 0 ? claim.entries : [...claim.entries, ...ahead];
				for (const entry of entries) {
					hooks.claimed?.(entry, claim.now);
					subscriber.next({ line: ++line, text: entry.url, source: 'schedule' });
				}
				giveBack(valve, credits - entries.length);
				if (entries.length < credits && !stopped) await sleep(pause);
			}
		};
		loop().then(
			() => subscriber.complete(),
			(error: unknown) => subscriber.error(error),
		);
		return () => {
			finish();
			stopping.unsubscribe();
			waking?.unsubscribe();
		};
	});
}

function giveBack(valve: Valve, credits: number): void {
	for (let i = 0; i < credits; i++) valve.release();
}

/** Schedule ms in `wall` wall ms. */
const scheduleMsIn = (options: DispatchOptions, wall: number): number => wall / options.wallMs(1);
