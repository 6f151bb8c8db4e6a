import { Subject, concat, from, lastValueFrom, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { commit } from '../../src/stages/commit.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { RECORD_VERSION, type StoreOperation, type UrlRecord, type ValidatorStore } from '../../src/store/model/types.js';
import type { Task } from '../../src/domain/task/types.js';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { NOW } from './deps.js';
import { OptionError } from '../../src/base/errors/index.js';

const record = (hash: string): UrlRecord => ({ v: RECORD_VERSION, status: 200, hash, lastChecked: NOW });
const judged = (n: number, next?: UrlRecord): Task => ({
	line: n,
	input: `https://a.example/${n}`,
	url: `https://a.example/${n}`,
	verdict: { url: `https://a.example/${n}`, changed: next !== undefined, reason: next ? 'new' : 'error' },
	next,
});

async function contents(store: ValidatorStore): Promise<Record<string, UrlRecord>> {
	const all: Record<string, UrlRecord> = {};
	for await (const [key, value] of store.entries()) all[key] = value;
	return all;
}

/** A store that records each batch it is given, and can be told to fail. */
class WatchedStore extends MemoryStore {
	batches: StoreOperation[][] = [];
	fail = false;
	delayMs = 0;
	override async batch(operations: readonly StoreOperation[]): Promise<void> {
		if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
		if (this.fail) throw new Error('disk full');
		this.batches.push([...operations]);
		return super.batch(operations);
	}
}

describe('commit', () => {
	it("stores each task's next record under its URL, and leaves a task without one out", async () => {
		const store = new MemoryStore();
		const out = await lastValueFrom(from([judged(1, record('h1')), judged(2), judged(3, record('h3'))]).pipe(commit({}, store), toArray()));
		expect(out.map((task) => task.line)).toEqual([1, 2, 3]);
		expect(await contents(store)).toEqual({ 'https://a.example/1': record('h1'), 'https://a.example/3': record('h3') });
	});

	it('writes in batches of batchSize, and the remainder when the stream completes', async () => {
		const store = new WatchedStore();
		await lastValueFrom(from([1, 2, 3, 4, 5].map((n) => judged(n, record(`h${n}`)))).pipe(commit({ batchSize: 2, maxWaitMs: 10_000 }, store), toArray()));
		expect(store.batches.map((batch) => batch.map((operation) => operation.key))).toEqual([
			['https://a.example/1', 'https://a.example/2'],
			['https://a.example/3', 'https://a.example/4'],
			['https://a.example/5'],
		]);
	});

	it('completes only after the last batch is in the store', async () => {
		const store = new MemoryStore();
		const tasks = new Subject<Task>();
		const done = lastValueFrom(tasks.pipe(commit({ batchSize: 100, maxWaitMs: 10_000 }, store), toArray()));
		tasks.next(judged(1, record('h1')));
		expect(await contents(store)).toEqual({});
		tasks.complete();
		await done;
		expect(Object.keys(await contents(store))).toEqual(['https://a.example/1']);
	});

	it('writes a partial batch after maxWaitMs without waiting for the stream to end', async () => {
		const store = new MemoryStore();
		const tasks = new Subject<Task>();
		const done = lastValueFrom(tasks.pipe(commit({ batchSize: 100, maxWaitMs: 20 }, store), toArray()));
		tasks.next(judged(1, record('h1')));
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(Object.keys(await contents(store))).toEqual(['https://a.example/1']);
		tasks.complete();
		await done;
	});

	it("writes the extra operations (the host book's changes) with the batch", async () => {
		const store = new WatchedStore();
		const host = newHostRecord(NOW);
		let calls = 0;
		const extra = (): StoreOperation[] => (calls++ === 0 ? [{ type: 'putHost', key: 'https://a.example', value: host }] : []);
		await lastValueFrom(from([judged(1, record('h1'))]).pipe(commit({ extra }, store), toArray()));
		expect(store.batches).toEqual([
			[
				{ type: 'put', key: 'https://a.example/1', value: record('h1') },
				{ type: 'putHost', key: 'https://a.example', value: host },
			],
		]);
		expect(await store.getHosts(['https://a.example'])).toEqual([host]);
	});

	it('commits what it was given before passing on an upstream error', async () => {
		const store = new WatchedStore();
		store.delayMs = 30;
		const failing = concat(
			from([judged(1, record('h1'))]),
			throwError(() => new Error('upstream broke')),
		);
		await expect(lastValueFrom(failing.pipe(commit({ maxWaitMs: 10_000 }, store)))).rejects.toThrow('upstream broke');
		expect(Object.keys(await contents(store))).toEqual(['https://a.example/1']);
	});

	it('errors the stream when the store fails to write', async () => {
		const store = new WatchedStore();
		store.fail = true;
		await expect(lastValueFrom(from([judged(1, record('h1'))]).pipe(commit({}, store), toArray()))).rejects.toThrow('disk full');
	});

	it('refuses a store spec or a value without batch with a RevisitError (USAGE), when called', () => {
		expect(() => commit(undefined, '.revisit' as never)).toThrow(
			expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('a stage takes an opened store') }),
		);
		expect(() => commit(undefined, { getMany: () => [] } as never)).toThrow(
			expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('got an object without batch()') }),
		);
	});

	it('refuses a batch size that is not a positive integer', () => {
		expect(() => commit({ batchSize: 0 }, new MemoryStore())).toThrow(OptionError);
	});

	it('tells when a batch takes the tasks passed so far, and when it is written, in that order', async () => {
		const store = new WatchedStore();
		store.delayMs = 20;
		const events: string[] = [];
		await lastValueFrom(
			from([judged(1, record('a')), judged(2, record('b')), judged(3, record('c'))]).pipe(
				commit(
					{
						batchSize: 2,
						flushing: () => events.push(`take (${store.batches.length} written)`),
						written: () => events.push(`written ${store.batches.length}`),
					},
					store,
				),
				toArray(),
			),
		);
		// The second batch is taken (at the end) before the first is written; each is told once written.
		expect(events).toEqual(['take (0 written)', 'take (0 written)', 'written 1', 'written 2']);
		expect(store.batches.map((batch) => batch.length)).toEqual([2, 1]);
	});
});
