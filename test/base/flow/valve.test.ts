import { describe, expect, it } from 'vitest';
import { createValve, PARK_WINDOWS } from '../../../src/base/flow/valve.js';
import { OptionError } from '../../../src/base/errors/index.js';

describe('createValve', () => {
	it('grants credit up to the high-water mark, then waits for a release', async () => {
		const valve = createValve(2);
		await valve.acquire();
		await valve.acquire();
		let third = false;
		const waiting = valve.acquire().then(() => (third = true));
		await new Promise((resolve) => setImmediate(resolve));
		expect(third).toBe(false);
		expect(valve.inFlight).toBe(2);
		valve.release();
		await waiting;
		expect(third).toBe(true);
		expect(valve.inFlight).toBe(2);
	});

	it('tryAcquire takes free credit at once, and never jumps the queue of waiting acquires', async () => {
		const valve = createValve(1);
		expect(valve.tryAcquire()).toBe(true);
		expect(valve.tryAcquire()).toBe(false);
		const waiting = valve.acquire();
		valve.release();
		// The credit went to the waiting acquire, not to a later tryAcquire.
		expect(valve.tryAcquire()).toBe(false);
		await waiting;
		expect(valve.inFlight).toBe(1);
	});

	it('parks up to PARK_WINDOWS windows of items, each giving its credit to a waiting acquire', async () => {
		const valve = createValve(1);
		await valve.acquire();
		const waiting = valve.acquire();
		expect(valve.park()).toBe(true);
		await waiting;
		expect(valve.inFlight).toBe(1);
		for (let i = 1; i < PARK_WINDOWS; i++) {
			expect(valve.park()).toBe(true);
			await valve.acquire();
		}
		// The limit: a further item is not parked and keeps its credit.
		expect(valve.park()).toBe(false);
		expect(valve.tryAcquire()).toBe(false);
		valve.unpark();
		expect(valve.park()).toBe(true);
		expect(valve.tryAcquire()).toBe(true);
	});

	it.each([0, -1, 1.5, Number.NaN])('rejects a high-water mark of %s', (value) => {
		expect(() => createValve(value)).toThrow(OptionError);
	});
});
