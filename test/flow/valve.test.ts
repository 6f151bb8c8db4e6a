import { describe, expect, it } from 'vitest';
import { createValve } from '../../src/flow/valve.js';

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

	it.each([0, -1, 1.5, Number.NaN])('rejects a high-water mark of %s', (value) => {
		expect(() => createValve(value)).toThrow(TypeError);
	});
});
