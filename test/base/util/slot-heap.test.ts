import { describe, expect, it } from 'vitest';
import { SlotPlaces, SlotHeap } from '../../../src/base/util/slot-heap.js';
import { mulberry32 } from '../../../bench/lib/prng.js';

/** A heap over slots 0..n-1 whose keys are `keys[slot]`, smallest (or largest) on top. */
function heapOver(keys: number[], smallest = true) {
	const places = new SlotPlaces();
	places.grow(keys.length);
	return new SlotHeap((a, b) => (smallest ? keys[a]! < keys[b]! : keys[a]! > keys[b]!), places);
}

describe('SlotHeap', () => {
	it('pops in order, and removes any slot wherever it stands', () => {
		const keys = [5, 3, 8, 1, 9, 2];
		const heap = heapOver(keys);
		keys.forEach((_, slot) => heap.push(slot));
		heap.remove(3); // key 1
		heap.remove(3); // already out: nothing
		const out: number[] = [];
		for (let top = heap.peek(); top !== -1; top = heap.peek()) {
			out.push(keys[top]!);
			heap.remove(top);
		}
		expect(out).toEqual([2, 3, 5, 8, 9]);
		expect(heap.size).toBe(0);
	});

	it('clears: every slot out, and a removal of one after is nothing', () => {
		const keys = [4, 2, 7];
		const heap = heapOver(keys);
		heap.push(0);
		heap.push(1);
		heap.clear();
		heap.remove(0);
		expect(heap.size).toBe(0);
		heap.push(2);
		expect(heap.peek()).toBe(2);
	});

	it("two heaps sharing places leave each other's slots alone", () => {
		const keys = [1, 2, 3, 4];
		const places = new SlotPlaces();
		places.grow(4);
		const a = new SlotHeap((x, y) => keys[x]! < keys[y]!, places);
		const b = new SlotHeap((x, y) => keys[x]! < keys[y]!, places);
		a.push(0);
		b.push(1);
		b.push(2);
		a.remove(1); // in b, not a
		expect([a.size, b.size]).toEqual([1, 2]);
		expect([...b.slots()].sort()).toEqual([1, 2]);
	});

	it('keeps the heap order through random pushes and removals, past its first room', () => {
		const random = mulberry32(7);
		const keys = Array.from({ length: 2000 }, () => Math.floor(random() * 1000));
		const heap = heapOver(keys, false);
		const live = new Set<number>();
		for (let slot = 0; slot < keys.length; slot++) {
			if (live.size > 0 && random() < 0.4) {
				const victim = [...live][Math.floor(random() * live.size)]!;
				heap.remove(victim);
				live.delete(victim);
			} else {
				heap.push(slot);
				live.add(slot);
			}
			expect(heap.peek() === -1 ? undefined : keys[heap.peek()]).toBe(live.size ? Math.max(...[...live].map((s) => keys[s]!)) : undefined);
		}
		expect(heap.size).toBe(live.size);
	});
});
