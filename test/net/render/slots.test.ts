import { describe, expect, it } from 'vitest';
import { Slots } from '../../../src/net/render/slots.js';

describe('Slots', () => {
	it('lets `size` holders in at once and the others in, in arrival order, as slots are released', async () => {
		const slots = new Slots(2);
		const order: string[] = [];
		const first = await slots.take();
		const second = await slots.take();
		const third = slots.take().then((release) => (order.push('third'), release));
		const fourth = slots.take().then((release) => (order.push('fourth'), release));
		await Promise.resolve();
		expect([slots.busy, order]).toEqual([2, []]);
		first();
		first(); // a second release of the same slot frees nothing more
		const releaseThird = await third;
		expect([slots.busy, order]).toEqual([2, ['third']]);
		second();
		(await fourth)();
		releaseThird();
		expect([slots.busy, order]).toEqual([0, ['third', 'fourth']]);
	});

	it('rejects a waiter whose signal aborts, and gives its place to the next', async () => {
		const slots = new Slots(1);
		const held = await slots.take();
		const controller = new AbortController();
		const aborted = slots.take(controller.signal);
		const next = slots.take();
		controller.abort(new Error('stop'));
		await expect(aborted).rejects.toThrow('stop');
		held();
		const release = await next;
		expect(slots.busy).toBe(1);
		release();
		await expect(slots.take(controller.signal)).rejects.toThrow('stop');
	});
});
