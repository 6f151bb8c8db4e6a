import { describe, expect, it } from 'vitest';
import { WATCH_INTERVALS } from '../../src/domain/schedule/due-time.js';
import { solveThreshold } from '../../src/domain/schedule/threshold.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { createThreshold } from '../../src/watch/threshold.js';

const T = Date.parse('2030-01-01T00:00:00Z');

describe('createThreshold', () => {
	it("starts at the model's μ for the schedule's rates, and rises while due URLs pile up", async () => {
		const queue = await new MemoryStore().dueQueue({ at0: T, wall0: Date.now(), scale: 0 });
		await queue.put(
			Array.from({ length: 300 }, (_, i) => ({ url: `https://a.test/${i}`, origin: 'https://a.test', due: T - 1, rate: i % 3 === 0 ? 1 : 0.01 })),
		);
		let now = T;
		const threshold = createThreshold(queue, { checksPerDay: 100, bounds: WATCH_INTERVALS, now: () => now });
		await threshold.update();
		expect(threshold.model.mu).toBeCloseTo(solveThreshold(await queue.rateBins(), 100, WATCH_INTERVALS), 9);
		const first = threshold.mu;
		now += 3_600_000;
		// The hour's checks all went out, and the backlog still stands.
		threshold.dispatched(100 / 24);
		await threshold.update();
		expect(threshold.mu).toBeGreaterThan(first);
	});

	it('falls when checks go unspent with nothing due', async () => {
		const queue = await new MemoryStore().dueQueue({ at0: T, wall0: Date.now(), scale: 0 });
		await queue.put(Array.from({ length: 100 }, (_, i) => ({ url: `https://a.test/${i}`, origin: 'https://a.test', due: T + 86_400_000, rate: 0.1 })));
		let now = T;
		const threshold = createThreshold(queue, { checksPerDay: 1000, bounds: WATCH_INTERVALS, now: () => now });
		await threshold.update();
		const first = threshold.mu;
		now += 3_600_000;
		await threshold.update();
		expect(threshold.mu).toBeLessThan(first);
		expect(threshold.model.correction).toBeLessThan(1);
	});

	it('steps by the hours since its last step, so that --time-scale does not slow it, and by 3 hours at most', async () => {
		const correctionAfter = async (hours: number): Promise<number> => {
			const queue = await new MemoryStore().dueQueue({ at0: T, wall0: Date.now(), scale: 0 });
			await queue.put(Array.from({ length: 100 }, (_, i) => ({ url: `https://a.test/${i}`, origin: 'https://a.test', due: T + 86_400_000, rate: 0.1 })));
			let now = T;
			const threshold = createThreshold(queue, { checksPerDay: 1000, bounds: WATCH_INTERVALS, now: () => now });
			await threshold.update();
			now += hours * 3_600_000;
			await threshold.update();
			return Math.log(threshold.model.correction);
		};
		// Nothing due and nothing sent: the same reading each time, over 1, 2.5 and 10 hours.
		const one = await correctionAfter(1);
		expect(one).toBeLessThan(0);
		expect(await correctionAfter(2.5)).toBeLessThan(one * 1.5);
		expect(await correctionAfter(10)).toBeCloseTo(await correctionAfter(3), 9);
	});
});
