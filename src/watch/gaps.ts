import type { SweepDeps } from '../pipelines/sweep.js';
import type { DueQueue } from '../store/model/due.js';
import { urlOfLine } from '../stages/normalise.js';
import type { InputBatch } from './inputs.js';

// The watch's politeness toward the schedule: each origin's least gap between claims,
// from --host-rate and from the Crawl-delay the run's limiter meets.

/**
 * Gives each origin first seen in `batch` its least gap between claims (schedule ms).
 *
 * @example
 * await setGaps(queue, batch, gapped, hostGapMs / scale);
 */
export async function setGaps(queue: DueQueue, batch: InputBatch, gapped: Set<string>, gapMs: number): Promise<void> {
	for (const line of batch.lines) {
		const parsed = urlOfLine(line);
		if (!('origin' in parsed) || gapped.has(parsed.origin)) continue;
		gapped.add(parsed.origin);
		await queue.gap(parsed.origin, gapMs);
	}
}

/**
 * The run's limiter, whose Crawl-delay gaps also reach the schedule, so that claims respect
 * them (and on Redis, fleet-wide); never below `--host-rate`'s gap (`hostGapMs`, wall ms),
 * which the schedule holds for the origin too.
 *
 * @example
 * const limiter = gapsToQueue(deps, queue, 1 / scale, hostGapMs, spaced);
 */
export function gapsToQueue(deps: SweepDeps, queue: DueQueue, scale: number, hostGapMs = 0, spaced?: Set<string>): SweepDeps['limiter'] {
	const limiter = deps.limiter;
	return {
		run: (origin, job, signal, held, first) => limiter.run(origin, job, signal, held, first),
		gap: (origin, ms, since) => {
			limiter.gap(origin, ms, since);
			spaced?.add(origin);
			void queue.gap(origin, Math.max(ms, hostGapMs) * scale).catch(() => {});
		},
		get pacing() {
			return limiter.pacing;
		},
	};
}
