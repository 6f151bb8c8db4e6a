/** An entry of a `Heap`: its value, and where it stands (-1 once out). */
export interface HeapEntry<T> {
	readonly value: T;
	/** @internal */
	at: number;
}

/**
 * A binary heap whose top is the entry that `before` puts first, with removal of any entry
 * by its handle in O(log n). The budget keeps the best N candidates with one of these per
 * host and one overall, and a candidate pushed out of its host's must leave the overall
 * heap too: npm's heaps either remove by search, O(n) (heap-js), or not at all (mnemonist).
 *
 * @example
 * const worst = new Heap<number>((a, b) => a < b); // smallest on top
 * const entry = worst.push(5); worst.push(3); worst.remove(entry); worst.pop() // 3
 */
export class Heap<T> {
	readonly #items: Array<HeapEntry<T>> = [];
	readonly #before: (a: T, b: T) => boolean;

	constructor(before: (a: T, b: T) => boolean) {
		this.#before = before;
	}

	get size(): number {
		return this.#items.length;
	}

	/** The top entry, or undefined when empty. */
	peek(): HeapEntry<T> | undefined {
		return this.#items[0];
	}

	push(value: T): HeapEntry<T> {
		const entry: HeapEntry<T> = { value, at: this.#items.length };
		this.#items.push(entry);
		this.#up(entry.at);
		return entry;
	}

	/** Takes the top entry off, and returns it. */
	pop(): HeapEntry<T> | undefined {
		const top = this.#items[0];
		if (top) this.remove(top);
		return top;
	}

	/** Takes `entry` off wherever it stands; an entry already out is left alone. */
	remove(entry: HeapEntry<T>): void {
		const i = entry.at;
		if (i < 0 || this.#items[i] !== entry) return;
		const last = this.#items.pop()!;
		entry.at = -1;
		if (last === entry) return;
		this.#items[i] = last;
		last.at = i;
		this.#down(i);
		this.#up(last.at);
	}

	/** Takes every entry off. */
	clear(): void {
		for (const entry of this.#items) entry.at = -1;
		this.#items.length = 0;
	}

	/** Every entry still in, in no particular order. */
	entries(): ReadonlyArray<HeapEntry<T>> {
		return this.#items;
	}

	#up(i: number): void {
		const items = this.#items;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (!this.#before(items[i]!.value, items[parent]!.value)) break;
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
			if (left < items.length && this.#before(items[left]!.value, items[first]!.value)) first = left;
			if (right < items.length && this.#before(items[right]!.value, items[first]!.value)) first = right;
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
		a.at = j;
		b.at = i;
	}
}
