import { firstValueFrom, lastValueFrom, NEVER, Subject, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createValve } from '../../src/base/flow/valve.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { dispatch } from '../../src/watch/dispatch.js';

const T = Date.parse('2030-01-01T00:00:00Z');
const entries = (n: number, due: number) =>
	Array.from({ length: n }, (_, i) => ({ url: `https://a.test/${i}`, origin: 'https://a.test', due: due + i, rate: 0.1 }));
const options = { rate: 1, perHost: 100, leaseMs: 60_000, wallMs: (ms: number) => ms };

describe('dispatch', () => {
	it('emits due URLs as input lines, earliest first, no more than the valve lets in', async () => {
		const queue = await new MemoryStore().dueQueue({ at0: T, wall0: Date.now(), scale: 1 });
		await queue.put(entries(5, T - 100));
		const valve = createValve(3);
		const lines = await lastValueFrom(dispatch(queue, valve, options, NEVER).pipe(take(3), toArray()));
		expect(lines.map((line) => line.text)).toEqual(['https://a.test/0', 'https://a.test/1', 'https://a.test/2']);
		expect(lines.every((line) => line.source === 'schedule')).toBe(true);
		expect(valve.inFlight).toBe(3);
		expect((await queue.stats()).claimed).toBe(3);
	});

	it('completes when stopped, and at --until, giving back what it claimed past it', async () => {
		const queue = await new MemoryStore().dueQueue({ at0: T, wall0: Date.now(), scale: 1 });
		// Not to be pulled ahead before they are due.
		await queue.put(entries(2, T + 50).map((entry) => ({ ...entry, notBefore: T + 50 })));
		const stop = new Subject<void>();
		const done = lastValueFrom(dispatch(queue, createValve(10), options, stop).pipe(toArray()));
		setTimeout(() => stop.next(), 20);
		expect(await done).toEqual([]);
		const ended = await lastValueFrom(dispatch(queue, createValve(10), { ...options, until: T + 30 }, NEVER).pipe(toArray()));
		expect(ended).toEqual([]);
		expect((await queue.stats()).claimed).toBe(0);
		expect(await firstValueFrom(dispatch(queue, createValve(10), options, NEVER))).toMatchObject({ text: 'https://a.test/0' });
	});
});
