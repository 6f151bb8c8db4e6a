import type { QueueStats } from '../store/model/due.js';
import { counted } from '../base/util/counted.js';
import type { WatchObserver } from './run.js';

/** What a watch has done so far and where its schedule stands: the progress line's and the status line's figures. */
export interface WatchFigures {
	/** URLs in the schedule, at the last read of it. */
	watched: number;
	/** Checks judged since the watch started. */
	checks: number;
	changed: number;
	errors: number;
	/** URLs due and not claimed, at the last read of the schedule. */
	backlog: number;
	/** How long the oldest of them has waited (schedule ms); 0 when none is due. */
	lateMs: number;
}

/** A watch's figures, kept up to date by the observer it hands the watch. */
export interface WatchStatus {
	readonly figures: Readonly<WatchFigures>;
	/** Feeds the figures: give it to the watch (combined with any other, `bothObservers`). */
	readonly observer: WatchObserver;
}

/** Figures at the start: nothing watched, nothing checked. */
export function createWatchFigures(): WatchFigures {
	return { watched: 0, checks: 0, changed: 0, errors: 0, backlog: 0, lateMs: 0 };
}

/**
 * Counts a watch's checks into `figures` as they are judged (the run history's counts
 * come only when an hour of the schedule closes) and keeps the schedule's size and
 * backlog as the threshold's updates read them, every few seconds. `now` is the
 * schedule's clock, which the lateness of the oldest due URL is read on.
 *
 * @example
 * const status = createWatchStatus(createWatchFigures(), () => clock.now());
 * watchTasks(deps, { ...plan, observer: bothObservers(plan.observer, status.observer) });
 * formatWatchStatus(status.figures) // '50 URLs watched, 130 checks, 3 changed, 0 errors, none due'
 */
export function createWatchStatus(figures: WatchFigures, now: () => number): WatchStatus {
	return {
		figures,
		observer: {
			check(task) {
				const verdict = task.verdict;
				if (!verdict) return;
				figures.checks++;
				if (verdict.changed) figures.changed++;
				if (verdict.reason === 'error') figures.errors++;
			},
			queue(stats: QueueStats) {
				figures.watched = stats.size;
				figures.backlog = stats.backlog;
				figures.lateMs = stats.backlog > 0 && stats.next !== undefined ? Math.max(0, now() - stats.next) : 0;
			},
		},
	};
}

/**
 * The figures as one line: the URLs watched and the checks apart, then the backlog and
 * how late its oldest URL is.
 *
 * @example
 * formatWatchStatus({ watched: 50, checks: 130, changed: 3, errors: 0, backlog: 12, lateMs: 180_000 })
 * // '50 URLs watched, 130 checks, 3 changed, 0 errors, 12 due (the oldest 3m late)'
 */
export function formatWatchStatus(figures: Readonly<WatchFigures>): string {
	const due = figures.backlog === 0 ? 'none due' : `${figures.backlog} due${figures.lateMs > 0 ? ` (the oldest ${roughDuration(figures.lateMs)} late)` : ''}`;
	return (
		`${counted(figures.watched, 'URL')} watched, ${counted(figures.checks, 'check')}, ${figures.changed} changed, ` +
		`${counted(figures.errors, 'error')}, ${due}`
	);
}

const ROUGH_UNITS = [
	['d', 86_400_000],
	['h', 3_600_000],
	['m', 60_000],
	['s', 1000],
] as const;

/**
 * A duration to the nearest of its largest unit, for lines a person reads: 90 s is `2m`.
 *
 * @example
 * roughDuration(5_400_000) // '2h'
 */
export function roughDuration(ms: number): string {
	for (const [unit, size] of ROUGH_UNITS) if (ms >= size) return `${Math.round(ms / size)}${unit}`;
	return `${Math.round(ms)}ms`;
}

/**
 * One observer calling two: each method of either, in turn.
 *
 * @example
 * const observer = bothObservers(metrics.observer, status.observer);
 */
export function bothObservers(first: WatchObserver | undefined, second: WatchObserver): WatchObserver {
	if (first === undefined) return second;
	const names = new Set([...Object.keys(first), ...Object.keys(second)]) as Set<keyof WatchObserver>;
	const both: Record<string, (value: never) => void> = {};
	for (const name of names) {
		both[name] = (value: never) => {
			(first[name] as ((value: never) => void) | undefined)?.(value);
			(second[name] as ((value: never) => void) | undefined)?.(value);
		};
	}
	return both as WatchObserver;
}
