import { describe, expect, it } from 'vitest';
import { createLimiter, HELD_AFTER_MS } from '../../../src/net/http/limiter.js';

const deferred = () => {
	let resolve!: () => void;
	const promise = new Promise<void>((r) => (resolve = r));
	return { promise, resolve };
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createLimiter', () => {
	it('never runs more than perHost jobs for one origin, nor more than concurrency in all', async () => {
		const limiter = createLimiter({ concurrency: 3, perHost: 2 });
		const gates = Array.from({ length: 6 }, deferred);
		const running = new Map<string, number>();
		let peakTotal = 0;
		const peaks = new Map<string, number>();
		const job = (origin: string, i: number) =>
			limiter.run(origin, async () => {
				running.set(origin, (running.get(origin) ?? 0) + 1);
				peaks.set(origin, Math.max(peaks.get(origin) ?? 0, running.get(origin)!));
				peakTotal = Math.max(
					peakTotal,
					[...running.values()].reduce((a, b) => a + b, 0),
				);
				await gates[i]!.promise;
				running.set(origin, running.get(origin)! - 1);
			});
		const all = Promise.all([0, 1, 2].map((i) => job('a', i)).concat([3, 4, 5].map((i) => job('b', i))));
		await tick();
		expect(peakTotal).toBe(3);
		for (const gate of gates) {
			gate.resolve();
			await tick();
		}
		await all;
		expect(peaks.get('a')).toBe(2);
		expect(peaks.get('b')).toBe(2);
		expect(peakTotal).toBe(3);
	});

	it('lets a fast origin through while a slow one holds its own slots', async () => {
		const limiter = createLimiter({ concurrency: 2, perHost: 1 });
		const slow = deferred();
		const order: string[] = [];
		const slowJobs = [limiter.run('slow', () => slow.promise.then(() => void order.push('slow1'))), limiter.run('slow', async () => void order.push('slow2'))];
		const fastJobs = [1, 2, 3].map((i) => limiter.run('fast', async () => void order.push(`fast${i}`)));
		await Promise.all(fastJobs);
		expect(order).toEqual(['fast1', 'fast2', 'fast3']);
		slow.resolve();
		await Promise.all(slowJobs);
		expect(order).toEqual(['fast1', 'fast2', 'fast3', 'slow1', 'slow2']);
	});

	it('spaces starts per origin by the rate, using the injected clock', async () => {
		let now = 0;
		const limiter = createLimiter({ concurrency: 10, perHost: 10, rate: 1000 }, { now: () => now });
		const started: number[] = [];
		const jobs = [0, 1, 2].map(() => limiter.run('a', async () => void started.push(now)));
		await tick();
		expect(started).toEqual([0]);
		now = 1;
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(started.length).toBeGreaterThanOrEqual(2);
		now = 5;
		await new Promise((resolve) => setTimeout(resolve, 5));
		await Promise.all(jobs);
		expect(started).toEqual([0, 1, 5]);
	});

	it('counts a rate from when the request was sent, and starts nothing paced before', async () => {
		let now = 0;
		const limiter = createLimiter({ concurrency: 10, perHost: 10, rate: 10 }, { now: () => now });
		const started: number[] = [];
		const sends: Array<() => void> = [];
		const gate = deferred();
		const jobs = [0, 1].map(() =>
			limiter.run('a', (sent) => {
				started.push(now);
				sends.push(sent);
				return gate.promise;
			}),
		);
		await tick();
		expect(started).toEqual([0]);
		// 100 ms on, the first request is still not on the wire (a busy event loop): the second waits.
		now = 100;
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(started).toEqual([0]);
		now = 130;
		sends[0]!();
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(started).toEqual([0]);
		// 100 ms after the send, not after the start.
		now = 230;
		await new Promise((resolve) => setTimeout(resolve, 120));
		expect(started).toEqual([0, 230]);
		gate.resolve();
		await Promise.all(jobs);
	});

	it('drops a queued job when its signal aborts', async () => {
		const limiter = createLimiter({ concurrency: 1, perHost: 1 });
		const gate = deferred();
		const first = limiter.run('a', () => gate.promise);
		const controller = new AbortController();
		let ran = false;
		const second = limiter.run('a', async () => void (ran = true), controller.signal);
		controller.abort(new Error('stop'));
		await expect(second).rejects.toThrow('stop');
		gate.resolve();
		await first;
		await tick();
		expect(ran).toBe(false);
	});

	it('gives the slot back when a job throws before it returns a promise', async () => {
		const limiter = createLimiter({ concurrency: 1, perHost: 1 });
		await expect(
			limiter.run('a', () => {
				throw new Error('no plan');
			}),
		).rejects.toThrow('no plan');
		await expect(limiter.run('a', async () => 'next')).resolves.toBe('next');
	});

	it('tells queued jobs they are held once their host has started nothing for a while, unless every slot is busy', async () => {
		let now = 0;
		const limiter = createLimiter({ concurrency: 2, perHost: 1 }, { now: () => now });
		const gate = deferred();
		const held: string[] = [];
		const first = limiter.run('a', () => gate.promise);
		const second = limiter.run(
			'a',
			async () => 'a2',
			undefined,
			() => held.push('a2'),
		);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(held).toEqual([]);
		now += HELD_AFTER_MS;
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(held).toEqual(['a2']);
		gate.resolve();
		await Promise.all([first, second]);

		// With both slots busy, a queued job is waiting for a slot, not for its host.
		const gates = [deferred(), deferred()];
		const busy = [limiter.run('b', () => gates[0]!.promise), limiter.run('c', () => gates[1]!.promise)];
		const queued = limiter.run(
			'd',
			async () => 'd',
			undefined,
			() => held.push('d'),
		);
		now += 10 * HELD_AFTER_MS;
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(held).toEqual(['a2']);
		for (const gate of gates) gate.resolve();
		await Promise.all([...busy, queued]);
	});
});

describe('limiter gap (Crawl-delay)', () => {
	it('keeps at least the gap between two starts to the origin, counted from `since`, shared with a second limiter', async () => {
		const first = createLimiter({ concurrency: 4, perHost: 4 });
		const second = createLimiter({ concurrency: 4, perHost: 4 }, undefined, first.pacing);
		const origin = 'http://gap.test';
		const starts: number[] = [];
		const job = async () => {
			starts.push(Date.now());
		};
		const since = Date.now();
		first.gap(origin, 150, since);
		await Promise.all([first.run(origin, job), second.run(origin, job), first.run(origin, job), first.run('http://other.test', async () => undefined)]);
		expect(starts).toHaveLength(3);
		expect(starts[0]! - since).toBeGreaterThanOrEqual(145);
		expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(145);
		expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(145);
	});
});
