import { describe, expect, it } from 'vitest';
import { generations, repeating, rereading } from '../../src/watch/reread.js';

/** Waits (at most 10 s) for a condition, polling. */
const until = (what: string, found: () => boolean): Promise<void> =>
	new Promise((resolve, reject) => {
		const started = Date.now();
		const check = () => {
			if (found()) return resolve();
			if (Date.now() - started > 10_000) return reject(new Error(`timed out waiting for ${what}`));
			setTimeout(check, 2);
		};
		check();
	});

describe('generations', () => {
	it('numbers readings by the wall clock, always above the last even within one ms or when the clock steps back', () => {
		let wall = 1000.7;
		const next = generations(() => wall);
		expect([next(), next()]).toEqual([1000, 1001]);
		wall = 5000;
		expect(next()).toBe(5000);
		wall = 10;
		expect(next()).toBe(5001);
	});
});

describe('rereading', () => {
	it('reads one at a time, and triggers during a reading make one more reading after it', async () => {
		const finish: Array<() => void> = [];
		let overlapping = false;
		let running = 0;
		const reading = rereading(async () => {
			if (++running > 1) overlapping = true;
			await new Promise<void>((resolve) => finish.push(resolve));
			running--;
		}, new AbortController().signal);
		reading.trigger();
		reading.trigger();
		reading.trigger();
		expect(finish).toHaveLength(1);
		finish[0]!();
		await until('the second reading', () => finish.length === 2);
		finish[1]!();
		await until('the second reading to end', () => running === 0);
		reading.trigger();
		await until('a third reading', () => finish.length === 3);
		finish[2]!();
		expect(overlapping).toBe(false);
	});

	it('starts nothing once its signal has aborted', () => {
		const controller = new AbortController();
		let readings = 0;
		const reading = rereading(async () => void readings++, controller.signal);
		controller.abort();
		reading.trigger();
		expect(readings).toBe(0);
	});
});

describe('repeating', () => {
	it('waits in wall time for the schedule interval, and calls only once the schedule clock says it is due', async () => {
		let now = 0;
		let asked = 0;
		const clock = { now: () => (asked++, now) };
		let due = 0;
		// 1000 schedule ms are 10 wall ms; the clock here stands still until the test moves it.
		const timer = repeating(
			() => due++,
			1000,
			clock,
			(ms) => ms / 100,
		);
		try {
			timer.again();
			await until('the timer to look at the clock three times', () => asked >= 4);
			expect(due).toBe(0);
			now = 999;
			await until('it to look again', () => asked >= 6);
			expect(due).toBe(0);
			now = 1000;
			await until('it to be due', () => due === 1);
			// Counted again from the next reading.
			timer.again();
			now = 2000;
			await until('it to be due again', () => due === 2);
		} finally {
			timer.stop();
		}
	});
});
