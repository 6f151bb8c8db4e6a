/** Injected time source, so tests and the schedule can control it. */
export interface Clock {
	now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
