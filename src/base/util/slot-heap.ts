/**
 * Where each slot stands in the heap that holds it (-1: in none). Heaps that never hold
 * the same slot can share one: the budget's per-host heaps share theirs. Grown by its
 * owner as slots are added.
 */
export class SlotPlaces {
	at = new Int32Array(0);

	/** Makes room for slots 0..capacity-1; the new ones stand in no heap. */
	grow(capacity: number): void {
		if (capacity <= this.at.length) return;
		const at = new Int32Array(capacity).fill(-1);
		at.set(this.at);
		this.at = at;
	}
}

/**
 * A binary heap of slot numbers (small integers naming rows kept elsewhere, in typed
 * arrays) whose top is the slot that `before` puts first, with removal of any slot in
 * O(log n). Numbers rather than objects: the budget keeps 100,000 URLs in these, and an
 * object per entry was most of what a held URL cost (bench/BUDGET.md). npm's heaps either
 * remove by search, O(n) (heap-js), or not at all (mnemonist).
 *
 * @example
 * const places = new SlotPlaces(); places.grow(8);
 * const keys = [5, 3, 8];
 * const heap = new SlotHeap((a, b) => keys[a]! < keys[b]!, places); // smallest key on top
 * heap.push(0); heap.push(1); heap.push(2); heap.remove(1); heap.peek() // 0 (key 5)
 */
export class SlotHeap {
	#items = new Int32Array(16);
	#size = 0;
	readonly #before: (a: number, b: number) => boolean;
	readonly #places: SlotPlaces;

	constructor(before: (a: number, b: number) => boolean, places: SlotPlaces) {
		this.#before = before;
		this.#places = places;
	}

	get size(): number {
		return this.#size;
	}

	/** The top slot, or -1 when empty. */
	peek(): number {
		return this.#size > 0 ? this.#items[0]! : -1;
	}

	push(slot: number): void {
		if (this.#size === this.#items.length) {
			const items = new Int32Array(this.#items.length * 2);
			items.set(this.#items);
			this.#items = items;
		}
		this.#items[this.#size] = slot;
		this.#places.at[slot] = this.#size;
		this.#size++;
		this.#up(this.#size - 1);
	}

	/** Takes `slot` off wherever it stands; a slot not in this heap is left alone. */
	remove(slot: number): void {
		const i = this.#places.at[slot]!;
		if (i < 0 || i >= this.#size || this.#items[i] !== slot) return;
		this.#places.at[slot] = -1;
		this.#size--;
		if (i === this.#size) return;
		const last = this.#items[this.#size]!;
		this.#items[i] = last;
		this.#places.at[last] = i;
		this.#down(i);
		this.#up(this.#places.at[last]!);
	}

	/** Every slot still in, in no particular order (a copy). */
	slots(): Int32Array {
		return this.#items.slice(0, this.#size);
	}

	/** Takes every slot off, and lets go of the room they took. */
	clear(): void {
		for (let i = 0; i < this.#size; i++) this.#places.at[this.#items[i]!] = -1;
		this.#size = 0;
		this.#items = new Int32Array(16);
	}

	#up(i: number): void {
		const items = this.#items;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (!this.#before(items[i]!, items[parent]!)) break;
			this.#swap(i, parent);
			i = parent;
		}
	}

	#down(i: number): void {
		const items = this.#items;
		for (;;) {
			const left = 2 * i + 1;
			const right = left + 1;
			let first = i;
			if (left < this.#size && this.#before(items[left]!, items[first]!)) first = left;
			if (right < this.#size && this.#before(items[right]!, items[first]!)) first = right;
			if (first === i) return;
			this.#swap(i, first);
			i = first;
		}
	}

	#swap(i: number, j: number): void {
		const items = this.#items;
		const a = items[i]!;
		const b = items[j]!;
		items[i] = b;
		items[j] = a;
		this.#places.at[a] = j;
		this.#places.at[b] = i;
	}
}
