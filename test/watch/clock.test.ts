import { describe, expect, it } from 'vitest';
import { watchClock } from '../../src/watch/clock.js';

describe('watchClock', () => {
	it('starts at --now and runs --time-scale times faster than the wall clock', () => {
		let wall = 1_000;
		const clock = watchClock({ now: 5_000_000, scale: 60 }, () => wall);
		expect(clock.now()).toBe(5_000_000);
		wall += 1000;
		expect(clock.now()).toBe(5_060_000);
		expect(clock.wallMs(60_000)).toBe(1000);
		expect(clock.queue).toEqual({ at0: 5_000_000, wall0: 1_000, scale: 60 });
	});

	it('refuses a scale that is not above 0', () => {
		expect(() => watchClock({ scale: 0 })).toThrow('Expected a time scale above 0, got 0');
	});
});
