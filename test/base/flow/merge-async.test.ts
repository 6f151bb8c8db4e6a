import { from, lastValueFrom, Subject, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { mergeAsync } from '../../../src/base/flow/merge-async.js';
import { OptionError } from '../../../src/base/errors/index.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('mergeAsync', () => {
	it('runs at most `concurrency` items at once and emits each as it settles', async () => {
		let running = 0;
		let most = 0;
		const work = async (item: number): Promise<number> => {
			running++;
			most = Math.max(most, running);
			await sleep(item);
			running--;
			return item * 10;
		};
		const out = await lastValueFrom(
			from([30, 1, 1, 1, 1]).pipe(
				mergeAsync((item) => () => work(item), 2),
				toArray(),
			),
		);
		expect(most).toBe(2);
		expect(out).toHaveLength(5);
		// The slow first item finishes last: results are not held back for order.
		expect(out.at(-1)).toBe(300);
	});

	it('passes items that need no work straight through, taking no slot', async () => {
		let running = 0;
		let most = 0;
		const work = (item: number) => {
			if (item === 2) return undefined;
			return () => {
				running++;
				most = Math.max(most, running);
				return sleep(5).then(() => (running--, item));
			};
		};
		const out = await lastValueFrom(from([1, 2, 3]).pipe(mergeAsync(work, 2), toArray()));
		expect(out).toEqual([2, 1, 3]);
		expect(most).toBe(2);
	});

	it('aborts work still pending when unsubscribed, and only that', async () => {
		const signals: AbortSignal[] = [];
		const out = await lastValueFrom(
			from([1, 50, 50]).pipe(
				mergeAsync(
					(item) => (signal) => {
						signals.push(signal);
						return sleep(item).then(() => item);
					},
					3,
				),
				take(1),
				toArray(),
			),
		);
		expect(out).toEqual([1]);
		expect(signals.map((signal) => signal.aborted)).toEqual([false, true, true]);
	});

	it('errors the stream when work rejects, and completes only after the last item', async () => {
		await expect(lastValueFrom(from([1]).pipe(mergeAsync(() => () => Promise.reject(new Error('boom')), 2)))).rejects.toThrow('boom');
		const source = new Subject<number>();
		const done = lastValueFrom(
			source.pipe(
				mergeAsync((item) => () => sleep(5).then(() => item), 2),
				toArray(),
			),
		);
		source.next(1);
		source.complete();
		await expect(done).resolves.toEqual([1]);
	});

	it.each([0, 1.5])('rejects a concurrency of %s', (value) => {
		expect(() => mergeAsync((item) => async () => item, value)).toThrow(OptionError);
	});
});
