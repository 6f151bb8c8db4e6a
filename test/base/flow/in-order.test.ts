import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { inOrder } from '../../../src/base/flow/in-order.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('inOrder', () => {
	it('passes items with no work straight through, synchronously', () => {
		const seen: number[] = [];
		from([1, 2, 3])
			.pipe(inOrder(() => undefined))
			.subscribe((item) => seen.push(item));
		expect(seen).toEqual([1, 2, 3]);
	});

	it('runs work one at a time and keeps source order, also for items with no work behind pending ones', async () => {
		let running = 0;
		let most = 0;
		const log: string[] = [];
		const work = (item: number): Promise<void> | undefined => {
			if (item % 2 === 0) return undefined;
			running++;
			most = Math.max(most, running);
			log.push(`start ${item}`);
			return sleep(item === 1 ? 20 : 1).then(() => {
				running--;
				log.push(`end ${item}`);
			});
		};
		const out = await lastValueFrom(from([1, 2, 3, 4]).pipe(inOrder(work), toArray()));
		expect(out).toEqual([1, 2, 3, 4]);
		expect(most).toBe(1);
		expect(log).toEqual(['start 1', 'end 1', 'start 3', 'end 3']);
	});

	it('holds an item until its work is done', async () => {
		const source = new Subject<number>();
		const seen: number[] = [];
		let release!: () => void;
		source.pipe(inOrder((item) => (item === 1 ? new Promise<void>((resolve) => (release = resolve)) : undefined))).subscribe((item) => seen.push(item));
		source.next(1);
		source.next(2);
		await sleep(1);
		expect(seen).toEqual([]);
		release();
		await sleep(1);
		expect(seen).toEqual([1, 2]);
	});

	it('errors the stream when work fails, and completes only after pending work', async () => {
		await expect(lastValueFrom(from([1, 2]).pipe(inOrder((item) => (item === 2 ? Promise.reject(new Error('disk full')) : undefined))))).rejects.toThrow(
			'disk full',
		);
		let done = false;
		const finished = lastValueFrom(from([1]).pipe(inOrder(() => sleep(5).then(() => void (done = true)))));
		await finished;
		expect(done).toBe(true);
	});

	it("with overlap, starts each item's work at once, and still passes items on in order once all earlier work is done", async () => {
		const log: string[] = [];
		const work = (item: number): Promise<void> | undefined => {
			if (item === 2) return undefined;
			log.push(`start ${item}`);
			return sleep(item === 1 ? 20 : 1).then(() => void log.push(`end ${item}`));
		};
		const seen: number[] = [];
		await lastValueFrom(from([1, 2, 3]).pipe(inOrder(work, { overlap: true }), toArray())).then((items) => seen.push(...items));
		expect(log).toEqual(['start 1', 'start 3', 'end 3', 'end 1']);
		expect(seen).toEqual([1, 2, 3]);
	});

	it("with overlap, a later item's failure errors the stream even while earlier work is pending", async () => {
		const work = (item: number) => (item === 1 ? sleep(50) : Promise.reject(new Error('disk full')));
		await expect(lastValueFrom(from([1, 2]).pipe(inOrder(work, { overlap: true })))).rejects.toThrow('disk full');
	});
});
