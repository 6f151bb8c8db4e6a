import { OptionError } from '../base/errors/index.js';
/** Turns handed out at a steady rate. */
export interface Pacer {
	/** Resolves when the caller's turn comes; undefined when `max` callers wait already (refused). */
	turn(): Promise<void> | undefined;
}

/**
 * At most `perSecond` turns a second, in the order asked: a turn asked for too soon after
 * the last waits for its slot; more than `max` waiting at once are refused. What a
 * server puts in front of an answer that costs it something, so that a client asking in
 * a tight loop gets that many answers a second and no more of its time.
 *
 * @example
 * const pace = pacer(10, 64);
 * const turn = pace.turn();
 * if (!turn) return tooMany();
 * await turn;
 */
export function pacer(perSecond: number, max: number, now: () => number = Date.now): Pacer {
	if (!(perSecond > 0) || !(Number.isInteger(max) && max >= 0))
		throw new OptionError(perSecond > 0 ? 'max' : 'perSecond', `Expected a rate above 0 and a whole number waiting, got ${perSecond} and ${max}`);
	const gap = 1000 / perSecond;
	let next = -Infinity;
	let waiting = 0;
	return {
		turn() {
			const at = now();
			const slot = Math.max(at, next);
			if (slot > at && waiting >= max) return undefined;
			next = slot + gap;
			if (slot <= at) return Promise.resolve();
			waiting++;
			return new Promise((resolve) =>
				setTimeout(() => {
					waiting--;
					resolve();
				}, slot - at),
			);
		},
	};
}
