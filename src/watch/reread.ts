import type { Clock } from '../domain/task/clock.js';

/** The longest a Node timer can wait (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Numbers for readings: the wall clock's ms, but always above the last one given, so
 * two readings in one ms still differ and a restart's readings follow the last run's.
 *
 * @example
 * const next = generations(Date.now); next() < next() // true
 */
export function generations(wall: () => number): () => number {
	let last = -Infinity;
	return () => (last = Math.max(Math.floor(wall()), last + 1));
}

/**
 * Runs `read` when triggered, one reading at a time: a trigger during a reading makes
 * one more reading after it (any number of triggers meanwhile make just one), so the
 * last reading always starts after the last change. `read` must not reject.
 *
 * @example
 * const reading = rereading(() => readFileAgain(), signal); watcher.on('change', reading.trigger);
 */
export function rereading(read: () => Promise<void>, signal: AbortSignal): { trigger(): void } {
	let running = false;
	let again = false;
	const run = async () => {
		running = true;
		do {
			again = false;
			await read();
		} while (again && !signal.aborted);
		running = false;
	};
	return {
		trigger() {
			if (signal.aborted) return;
			if (running) again = true;
			else void run();
		},
	};
}

/**
 * Calls `due` every `everyMs` of the schedule clock, counted from each `again()` (call it
 * as each reading starts, whatever started it). The wait is a wall timer of
 * `wallMs(everyMs)`, checked against the clock when it fires.
 *
 * @example
 * const timer = repeating(reading.trigger, 86_400_000, clock, clock.wallMs);
 */
export function repeating(due: () => void, everyMs: number, clock: Clock, wallMs: (scheduleMs: number) => number): { again(): void; stop(): void } {
	let at = Infinity;
	let timer: NodeJS.Timeout | undefined;
	let stopped = false;
	const wait = () => {
		clearTimeout(timer);
		timer = undefined;
		if (stopped) return;
		const left = at - clock.now();
		if (left <= 0) return due();
		timer = setTimeout(wait, Math.min(MAX_TIMER_MS, Math.max(1, wallMs(left))));
	};
	return {
		again() {
			at = clock.now() + everyMs;
			wait();
		},
		stop() {
			stopped = true;
			clearTimeout(timer);
		},
	};
}
