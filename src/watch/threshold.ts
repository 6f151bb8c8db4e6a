import type { IntervalBounds } from '../schedule/due-time.js';
import { expectedFreshness, solveThreshold } from '../schedule/threshold.js';
import type { DueQueue, QueueStats } from '../store/due/types.js';

/** The threshold μ as the watch keeps it: solved from the model, corrected by what dispatch shows. */
export interface Threshold {
	/** μ now, in days of freshness. */
	readonly mu: number;
	/** The model's figures at the last update. */
	readonly model: { mu: number; freshness: number; correction: number };
	/** One check dispatched (for the feedback). */
	dispatched(count: number): void;
	/** Solves μ again over the schedule's rates and adjusts the correction; returns the queue's stats it read. */
	update(): Promise<QueueStats>;
}

/** How far the correction may move μ from the model's, either way. */
const MAX_CORRECTION = 8;
/** Per update: the step the correction takes. */
const STEP = 1.05;

/**
 * μ for a watch: the model's (`solveThreshold` over the schedule's rate histogram, so that
 * `checksPerDay` are spent), times a correction that feedback moves. The model does not
 * see new URLs' learning checks, lateness, or hosts whose politeness binds: when due URLs
 * pile up (a backlog over `slack` checks), μ rises, so intervals lengthen; when checks
 * are left unspent with nothing due, μ falls. Steps are small, since a new μ reaches a
 * URL only at its next check.
 *
 * @example
 * const threshold = createThreshold(queue, { checksPerDay: 86_400, bounds: WATCH_INTERVALS, slack: 100 });
 * setInterval(() => void threshold.update(), 2000);
 */
export function createThreshold(queue: DueQueue, options: { checksPerDay: number; bounds: IntervalBounds; slack: number; now(): number }): Threshold {
	let correction = 1;
	let modelMu = 0;
	let freshness = 1;
	let sent = 0;
	let since = options.now();
	return {
		get mu() {
			return modelMu * correction;
		},
		get model() {
			return { mu: modelMu, freshness, correction };
		},
		dispatched(count) {
			sent += count;
		},
		async update() {
			const [bins, stats] = await Promise.all([queue.rateBins(), queue.stats()]);
			modelMu = solveThreshold(bins, options.checksPerDay, options.bounds);
			const now = options.now();
			const expected = (options.checksPerDay * (now - since)) / 86_400_000;
			if (stats.backlog > options.slack) correction = Math.min(MAX_CORRECTION, correction * STEP);
			else if (stats.backlog === 0 && expected > 0 && sent < 0.9 * expected) correction = Math.max(1 / MAX_CORRECTION, correction / STEP);
			sent = 0;
			since = now;
			freshness = expectedFreshness(bins, modelMu * correction, options.bounds);
			return stats;
		},
	};
}
