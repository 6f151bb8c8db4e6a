import { describe, expect, it } from 'vitest';
import { pacer } from '../../src/watch/pace.js';
import { OptionError } from '../../src/base/errors/index.js';

describe('pacer', () => {
	it('lets the first through at once, makes the next wait their turns in order, and refuses past the most waiting', async () => {
		const pace = pacer(20, 2, () => 1_000);
		const order: number[] = [];
		await pace.turn();
		const second = pace.turn()!.then(() => order.push(2));
		const third = pace.turn()!.then(() => order.push(3));
		expect(pace.turn()).toBeUndefined();
		await Promise.all([second, third]);
		expect(order).toEqual([2, 3]);
	});

	it('hands out a turn at once again once its slot has come', async () => {
		let now = 0;
		const pace = pacer(10, 0, () => now);
		await pace.turn();
		expect(pace.turn()).toBeUndefined();
		now += 100;
		await expect(pace.turn()).resolves.toBeUndefined();
	});

	it('refuses a rate that is not above 0', () => {
		expect(() => pacer(0, 1)).toThrow(OptionError);
	});
});
