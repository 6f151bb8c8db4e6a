import { Subject, concat, from, lastValueFrom, tap, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { withResource } from '../../../src/io/sinks/resource.js';
import type { Task } from '../../../src/domain/task/types.js';
import { judged } from './context.js';

/** A resource that logs its life: opened, each task it sees, closed (and how). */
function logged(events: string[], options: { failOpen?: boolean; failClose?: boolean; slowClose?: boolean } = {}) {
	return withResource(
		async () => {
			if (options.failOpen) throw new Error('cannot open');
			events.push('open');
			return 'handle';
		},
		(handle) => tap((task: Task) => events.push(`use ${handle} for ${task.url}`)),
		async (_handle, outcome) => {
			if (options.slowClose) await new Promise((resolve) => setTimeout(resolve, 20));
			events.push(`close ${outcome}`);
			if (options.failClose) throw new Error('cannot close');
		},
	);
}

describe('withResource', () => {
	it('opens before any task passes, and passes the end on only once the resource is closed', async () => {
		const events: string[] = [];
		await lastValueFrom(
			from([judged('https://a.example/1')]).pipe(
				logged(events, { slowClose: true }),
				tap({ next: (task) => events.push(`passed ${task.url}`), complete: () => events.push('complete') }),
				toArray(),
			),
		);
		expect(events).toEqual(['open', 'use handle for https://a.example/1', 'passed https://a.example/1', 'close complete', 'complete']);
	});

	it('fails the stream when the resource cannot be closed', async () => {
		await expect(lastValueFrom(from([judged('https://a.example/1')]).pipe(logged([], { failClose: true })))).rejects.toThrow('cannot close');
	});

	it('fails the stream, with nothing passed, when the resource cannot be opened', async () => {
		const passed: Task[] = [];
		const error = await new Promise((resolve) =>
			from([judged('https://a.example/1')])
				.pipe(logged([], { failOpen: true }))
				.subscribe({ next: (task) => passed.push(task), error: resolve, complete: () => resolve(undefined) }),
		);
		expect((error as Error).message).toBe('cannot open');
		expect(passed).toEqual([]);
	});

	it('closes on an upstream error, then passes the error on', async () => {
		const events: string[] = [];
		const failing = concat(
			from([judged('https://a.example/1')]),
			throwError(() => new Error('upstream')),
		);
		await expect(lastValueFrom(failing.pipe(logged(events, { slowClose: true })))).rejects.toThrow('upstream');
		expect(events).toEqual(['open', 'use handle for https://a.example/1', 'close error']);
	});

	it('closes when unsubscribed mid-run', async () => {
		const events: string[] = [];
		const tasks = new Subject<Task>();
		const subscription = tasks.pipe(logged(events)).subscribe();
		await new Promise((resolve) => setTimeout(resolve, 5));
		tasks.next(judged('https://a.example/1'));
		subscription.unsubscribe();
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(events).toEqual(['open', 'use handle for https://a.example/1', 'close unsubscribe']);
	});
});
