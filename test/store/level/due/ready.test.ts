import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { ReadyHead } from '../../../../src/store/level/due/ready.js';
import { readyKey, type Sub } from '../../../../src/store/level/due/keys.js';
import { BacklogMemo } from '../../../../src/store/level/due/stats.js';
import { BACKLOG_COUNTED } from '../../../../src/store/model/due.js';
import { mulberry32 } from '../../../../bench/lib/prng.js';

const open = (): Sub<string> =>
	new MemoryLevel<string, string>({ valueEncoding: 'json' }).sublevel<string, string>('ready', { valueEncoding: 'json' }) as unknown as Sub<string>;
const all = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
	const found: T[] = [];
	for await (const item of items) found.push(item);
	return found;
};

describe('ReadyHead', () => {
	it('gives the origins in ready order as the database has them, past what it keeps too, as keys are written and deleted', async () => {
		const ready = open();
		const head = new ReadyHead(ready, 4);
		const random = mulberry32(7);
		const times = new Map<string, number>();
		for (let step = 0; step < 400; step++) {
			const origin = `http://o${Math.floor(random() * 12)}.test`;
			const was = times.get(origin);
			const next = random() < 0.2 ? undefined : Math.floor(random() * 50);
			// As the schedule writes them: the head told of each key in the write that moves it.
			const ops: Array<{ type: 'put' | 'del'; key: string; value?: string }> = [];
			if (was !== undefined) {
				head.del(readyKey(was, origin));
				ops.push({ type: 'del', key: readyKey(was, origin) });
				times.delete(origin);
			}
			if (next !== undefined) {
				head.put(readyKey(next, origin));
				ops.push({ type: 'put', key: readyKey(next, origin), value: origin });
				times.set(origin, next);
			}
			await ready.batch(ops as never);
			if (step % 10 !== 0) continue;
			const by = Math.floor(random() * 50);
			const inOrder = [...times].sort(([a, at], [b, bt]) => at - bt || (a < b ? -1 : 1)).map(([origin]) => origin);
			expect(await all(head.origins())).toEqual(inOrder);
			expect(await all(head.origins(readyKey(by, '')))).toEqual(inOrder.filter((origin) => times.get(origin)! < by));
			expect(await all(head.origins(undefined, 6))).toEqual(inOrder.slice(0, 6));
		}
	});

	it('reads the database again after a failed write (forget)', async () => {
		const ready = open();
		const head = new ReadyHead(ready);
		await ready.put(readyKey(5, 'http://a.test'), 'http://a.test');
		expect(await all(head.origins())).toEqual(['http://a.test']);
		// A write the head was told of, that never reached the database.
		head.put(readyKey(1, 'http://b.test'));
		head.forget();
		expect(await all(head.origins())).toEqual(['http://a.test']);
	});
});

describe('BacklogMemo', () => {
	it('gives a count that reached the cap again, less every URL taken since, until it could fall under the cap', () => {
		const memo = new BacklogMemo();
		memo.counted(
			BACKLOG_COUNTED + 3,
			[
				{ origin: 'a', depth: BACKLOG_COUNTED },
				{ origin: 'b', depth: 3 },
			],
			1000,
		);
		memo.took([{ origin: 'b' }, { origin: 'b' }]);
		expect(memo.reuse(2000)).toEqual({
			backlog: BACKLOG_COUNTED + 1,
			depths: [
				{ origin: 'a', depth: BACKLOG_COUNTED },
				{ origin: 'b', depth: 1 },
			],
		});
		memo.took([{}, {}]);
		expect(memo.reuse(2000)).toBeUndefined();
	});

	it('counts again a backlog under the cap every time, and any count after 30 s', () => {
		const memo = new BacklogMemo();
		memo.counted(BACKLOG_COUNTED - 1, [{ origin: 'a', depth: BACKLOG_COUNTED - 1 }], 1000);
		expect(memo.reuse(1001)).toBeUndefined();
		memo.counted(2 * BACKLOG_COUNTED, [{ origin: 'a', depth: 2 * BACKLOG_COUNTED }], 1000);
		expect(memo.reuse(30_000)?.backlog).toBe(2 * BACKLOG_COUNTED);
		expect(memo.reuse(32_000)).toBeUndefined();
	});
});
