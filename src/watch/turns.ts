import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Limiter } from '../net/http/limiter.js';
import type { DueClaims, DueTurns } from '../store/model/due.js';

/** How long a turn to send holds when its holder never says it sent (killed mid-request), wall ms. */
export const TURN_HOLD_MS = 30_000;

/**
 * The run's limiter, whose paced origins (`--host-rate`, Crawl-delay) also take turns on
 * a shared schedule (Redis): a request goes only once the origin's turn is this
 * process's, and the next process's turn comes a gap after this request is on the wire.
 * The claims' spacing holds the gap at claim time; a request leaves its process some ms
 * after its claim (its record read, robots.txt, a busy event loop), by an amount that
 * differs per process, so two processes' requests could reach the origin closer than the
 * gap. A schedule one process holds needs no turns: the limiter paces it from send times.
 *
 * @example
 * const limiter = withTurns(deps.limiter, queue, 250);
 */
export function withTurns(limiter: Limiter, queue: DueTurns & Pick<DueClaims, 'shared'>, hostGapMs = 0): Limiter {
	if (!queue.shared) return limiter;
	const gapOf = (origin: string): number => Math.max(hostGapMs, limiter.pacing.gaps.get(origin) ?? 0);
	return {
		run: (origin, job, signal, held, first) =>
			limiter.run(
				origin,
				async (sent) => {
					const gap = gapOf(origin);
					if (gap <= 0) return job(sent);
					const token = randomUUID();
					for (let wait = await queue.turn(origin, gap, TURN_HOLD_MS, token); wait > 0; wait = await queue.turn(origin, gap, TURN_HOLD_MS, token)) {
						await sleep(wait, undefined, signal ? { signal } : {});
					}
					let given = false;
					const give = (): Promise<void> | undefined => {
						if (given) return undefined;
						given = true;
						return queue.sent(origin, gap, token);
					};
					try {
						return await job(() => {
							sent();
							// The next turn counts from now: not awaited, the request goes on meanwhile.
							give()?.catch(() => {});
						});
					} finally {
						await give()?.catch(() => {});
					}
				},
				signal,
				held,
				first,
			),
		gap: (origin, ms, since) => limiter.gap(origin, ms, since),
		get pacing() {
			return limiter.pacing;
		},
	};
}
