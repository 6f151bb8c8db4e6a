import type { IntervalBounds } from '../domain/schedule/due-time.js';
import { expectedFreshness, solveThreshold } from '../domain/schedule/threshold.js';
import type { DueState, DueStats, QueueStats } from '../store/model/due.js';

/** The threshold μ as the watch keeps it: solved from the model, corrected by what dispatch shows. */
export interface Threshold {
	/** μ now, in days of freshness. */
	readonly mu: number;
	/** The model's figures at the last update. */
	readonly model: { mu: number; freshness: number; correction: number };
	/** Checks dispatched (for the feedback); `earlyMs`, how long before their due time they went (pulled ahead), summed. */
	dispatched(count: number, earlyMs?: number): void;
	/** Solves μ again over the schedule's rates and, once an hour of the schedule has passed, steps the correction; returns the queue's stats it read. */
	update(): Promise<QueueStats>;
}

/** The correction stays within [1/LIMIT, LIMIT]. */
const LIMIT = 64;
/** The controller's gains, per hour of the schedule (bench/WATCH.md: tuned in bench/watch-model.js). */
const GAIN = { integral: 0.02, proportional: 0.2, targetHours: 1, step: 0.1 } as const;
const HOUR_MS = 3_600_000;
/** The most hours one step of the correction stands for. */
const STEP_HOURS = 3;
/** The name the correction is saved under in the schedule (`DueQueue.save`). */
const SAVED = 'threshold';

/** The controller's state as the schedule keeps it: log f and the last position. */
interface SavedThreshold {
	logF: number;
	position: number;
}

const isSaved = (value: unknown): value is SavedThreshold =>
	typeof value === 'object' && value !== null && Number.isFinite((value as SavedThreshold).logF) && Number.isFinite((value as SavedThreshold).position);

/**
 * μ for a watch: the model's (`solveThreshold` over the schedule's rate histogram, so that
 * `checksPerDay` are spent), times a correction that feedback moves. The model does not
 * see new URLs' learning checks, lateness, or origins whose politeness binds. Once an
 * hour of the schedule's clock, the correction reads the queue's position P in hours of
 * checks at the rate: the backlog (URLs due and not claimed) over an hour's checks, or,
 * with nothing due, minus the share of the hour's checks left unspent plus how early
 * (hours) the hour's checks went on average (pulled ahead of their due time), at most 1; then
 *   log f += clamp(0.02·h·(P − 1) + 0.2·(P − P before), ±0.1·h)
 * over the h hours since the step before (1 in real time; more under --time-scale; at most 3),
 * f within [1/64, 64]. A slow controller in the schedule's clock: a new μ reaches a URL
 * only at its next check, hours or days later, so a fast one (a step every few seconds)
 * swings from one bound to the other and leaves checks unspent (bench/WATCH.md). So the
 * correction follows the rate as it is spent, pulled-ahead checks included, while the
 * estimates are young and μ's model is off. Each step is saved in the schedule
 * (`DueQueue.save`), and the first update reads it back: a restart, even after kill -9,
 * goes on from the last step, not from f = 1.
 *
 * @example
 * const threshold = createThreshold(queue, { checksPerDay: 86_400, bounds: WATCH_INTERVALS, now: () => clock.now() });
 * setInterval(() => void threshold.update(), 2000);
 */
export function createThreshold(queue: DueState & DueStats, options: { checksPerDay: number; bounds: IntervalBounds; now(): number }): Threshold {
	let logF = 0;
	let modelMu = 0;
	let freshness = 1;
	let sent = 0;
	let early = 0;
	let since = options.now();
	let before = 0;
	let resumed = false;
	const perHour = options.checksPerDay / 24;
	return {
		get mu() {
			return modelMu * Math.exp(logF);
		},
		get model() {
			return { mu: modelMu, freshness, correction: Math.exp(logF) };
		},
		dispatched(count, earlyMs = 0) {
			sent += count;
			early += Math.max(0, earlyMs);
		},
		async update() {
			if (!resumed) {
				const saved = await queue.saved(SAVED);
				if (isSaved(saved)) ({ logF, position: before } = { logF: clampLog(saved.logF), position: saved.position });
				resumed = true;
			}
			const [bins, stats] = await Promise.all([queue.rateBins(), queue.stats()]);
			modelMu = solveThreshold(bins, options.checksPerDay, options.bounds);
			const now = options.now();
			const hours = (now - since) / HOUR_MS;
			if (hours >= 1) {
				const unspent = Math.max(0, 1 - sent / (perHour * hours));
				const ahead = sent > 0 ? early / sent / HOUR_MS : 0;
				const position = stats.backlog > 0 ? stats.backlog / perHour : -Math.min(1, unspent + ahead);
				// Per hour of the schedule: under --time-scale an update can come hours apart, and a step per update would slow the controller by as much.
				// At most STEP_HOURS: after the machine slept, one reading of a backlog that sleep made is not hours of evidence.
				const weight = Math.min(hours, STEP_HOURS);
				const step = GAIN.integral * weight * (position - GAIN.targetHours) + GAIN.proportional * (position - before);
				logF = clampLog(logF + Math.max(-GAIN.step * weight, Math.min(GAIN.step * weight, step)));
				before = position;
				sent = 0;
				early = 0;
				since = now;
				await queue.save(SAVED, { logF, position } satisfies SavedThreshold);
			}
			freshness = expectedFreshness(bins, this.mu, options.bounds);
			return stats;
		},
	};
}

const clampLog = (logF: number): number => Math.max(-Math.log(LIMIT), Math.min(Math.log(LIMIT), logF));
