import { describe, expect, it } from 'vitest';
import { Heap, type HeapEntry } from '../../src/util/heap.js';
import { mulberry32 } from '../../bench/lib/prng.js';

describe('Heap', () => {
	it('pops in order, and removes any entry by its handle', () => {
		const heap = new Heap<number>((a, b) => a < b);
		const entries = [5, 3, 8, 1, 9, 2].map((n) => heap.push(n));
		heap.remove(entries[3]!); // 1
		heap.remove(entries[3]!); // already out: nothing
		const out: number[] = [];
		for (let entry = heap.pop(); entry; entry = heap.pop()) out.push(entry.value);
		expect(out).toEqual([2, 3, 5, 8, 9]);
		expect(heap.size).toBe(0);
	});

	it('clears: every entry out, and a removal of one after is nothing', () => {
		const heap = new Heap<number>((a, b) => a < b);
		const entry = heap.push(4);
		heap.push(2);
		heap.clear();
		heap.remove(entry);
		expect(heap.size).toBe(0);
		heap.push(7);
		expect(heap.pop()?.value).toBe(7);
	});

	it('keeps the heap order through random pushes and removals', () => {
		const random = mulberry32(7);
		const heap = new Heap<number>((a, b) => a > b);
		const live = new Set<HeapEntry<number>>();
		for (let i = 0; i < 2000; i++) {
			if (live.size > 0 && random() < 0.4) {
				const victim = [...live][Math.floor(random() * live.size)]!;
				heap.remove(victim);
				live.delete(victim);
			} else live.add(heap.push(Math.floor(random() * 1000)));
			expect(heap.peek()?.value).toBe(live.size ? Math.max(...[...live].map((e) => e.value)) : undefined);
		}
		expect(heap.size).toBe(live.size);
	});
});
