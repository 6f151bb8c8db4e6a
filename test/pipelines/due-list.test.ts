import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { dueList, type DueRow } from '../../src/pipelines/due-list.js';
import { newSignalTrust } from '../../src/domain/schedule/signals.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import type { UrlRecord } from '../../src/store/model/types.js';

const DAY = 86_400_000;
const NOW = Date.parse('2030-03-01T00:00:00Z');
const origin = 'https://a.example';

describe('dueList', () => {
	it("applies the run's signal skips: a URL still fresh by its host's trusted max-age is skipped, as a run skips it", async () => {
		const store = new MemoryStore();
		const record = (freshUntil?: number): UrlRecord => ({
			v: 1,
			status: 200,
			lastChecked: NOW - DAY,
			verifiedAt: NOW - DAY,
			...(freshUntil === undefined ? {} : { freshUntil }),
		});
		await store.batch([
			{ type: 'put', key: `${origin}/fresh`, value: record(NOW + DAY) },
			{ type: 'put', key: `${origin}/stale`, value: record(NOW - 1) },
			{
				type: 'putHost',
				key: origin,
				value: { ...newHostRecord(NOW - 10 * DAY), maxAge: { ...newSignalTrust(), right: 5, streak: 5, trusted: true, testedAt: NOW - DAY } },
			},
		]);
		const entries = await lastValueFrom(dueList(store, { verifyEveryMs: 30 * DAY, now: NOW }).pipe(toArray()));
		expect(entries.map((entry) => [entry.url, entry.skip])).toEqual([
			[`${origin}/fresh`, 'signal'],
			[`${origin}/stale`, undefined],
		]);
	});

	it('holds O(budget): a URL the budget lets go comes out while the store is still read', async () => {
		const store = new MemoryStore();
		await store.batch(
			Array.from({ length: 50 }, (_, i) => ({
				type: 'put' as const,
				key: `${origin}/${String(i).padStart(2, '0')}`,
				value: { v: 1, status: 200, lastChecked: NOW - (1 + (i % 5)) * DAY, rate: 0.1 },
			})),
		);
		const entries = await lastValueFrom(dueList(store, { budget: 5, verifyEveryMs: 0, now: NOW }).pipe(toArray()));
		expect(entries.filter((entry) => !entry.later)).toHaveLength(5);
		// The five chosen come last, after every one let go.
		expect(entries.slice(-5).every((entry) => !entry.later)).toBe(true);
		expect(entries.slice(-5).every((entry) => entry.lastChecked === new Date(NOW - 5 * DAY).toISOString())).toBe(true);
	});

	it('reads the store no faster than the stages take it: a URL let go comes out before the records after it are read', async () => {
		const store = new MemoryStore();
		// One origin each, and a host lookup that takes a turn of the event loop, as a real store's does.
		await store.batch(
			Array.from({ length: 300 }, (_, i) => ({
				type: 'put' as const,
				key: `https://h${String(i).padStart(3, '0')}.example/`,
				value: { v: 1, status: 200, lastChecked: NOW - DAY, rate: 0.1 },
			})),
		);
		const getHosts = store.getHosts.bind(store);
		store.getHosts = async (origins) => {
			await new Promise((resolve) => setImmediate(resolve));
			return getHosts(origins);
		};
		let read = 0;
		const entries = store.entries.bind(store);
		store.entries = async function* () {
			for await (const entry of entries()) {
				read++;
				yield entry;
			}
		};
		// Equal values: each URL after the first is let go as it comes (ties go to the earlier).
		const readAhead: number[] = [];
		let out = 0;
		await new Promise<void>((resolve, reject) =>
			dueList(store, { budget: 1, verifyEveryMs: 0, now: NOW }).subscribe({
				next: (entry) => {
					if (entry.later) readAhead.push(read - ++out);
				},
				error: reject,
				complete: resolve,
			}),
		);
		expect(readAhead).toHaveLength(299);
		expect(Math.max(...readAhead)).toBeLessThanOrEqual(2);
	});

	it('waits for its reader (`ready`) before reading on and before passing on each chosen URL', async () => {
		const store = new MemoryStore();
		await store.batch(
			Array.from({ length: 20 }, (_, i) => ({
				type: 'put' as const,
				key: `${origin}/${String(i).padStart(2, '0')}`,
				value: { v: 1, status: 200, lastChecked: NOW - (1 + (i % 5)) * DAY, rate: 0.1 },
			})),
		);
		// A reader with room for nothing until it is let go: one turn at a time.
		let room: (() => void) | undefined;
		const ready = () => new Promise<void>((resolve) => (room = resolve));
		const out: DueRow[] = [];
		let done = false;
		dueList(store, { budget: 4, verifyEveryMs: 0, now: NOW, ready }).subscribe({ next: (entry) => out.push(entry), complete: () => (done = true) });
		const settle = () => new Promise((resolve) => setImmediate(resolve));
		let turns = 0;
		for (; turns < 100; turns++) {
			await settle();
			if (done) break;
			// Nothing comes out while the reader has no room.
			const before = out.length;
			await settle();
			expect(out.length).toBe(before);
			room!();
		}
		expect(done).toBe(true);
		// One wait per stored URL read, and one per chosen URL passed on.
		expect(turns).toBe(20 + 4);
		expect(out.filter((entry) => !entry.later)).toHaveLength(4);
	});
});
