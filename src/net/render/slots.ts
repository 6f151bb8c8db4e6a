/**
 * At most `size` holders at once; the others wait in arrival order. `take` resolves to a
 * release function (call it once), or rejects with the signal's reason if the signal
 * aborts while waiting, leaving its place to the next.
 *
 * @example
 * const slots = new Slots(2);
 * const release = await slots.take(signal); try { ... } finally { release(); }
 */
export class Slots {
	#free: number;
	readonly #waiting: Array<() => void> = [];
	#busy = 0;

	constructor(size: number) {
		this.#free = size;
	}

	/** Holders now. */
	get busy(): number {
		return this.#busy;
	}

	take(signal?: AbortSignal): Promise<() => void> {
		if (signal?.aborted) return Promise.reject(signal.reason);
		if (this.#free > 0) {
			this.#free--;
			return Promise.resolve(this.#holder());
		}
		return new Promise((resolve, reject) => {
			const wake = () => {
				signal?.removeEventListener('abort', onAbort);
				resolve(this.#holder());
			};
			const onAbort = () => {
				this.#waiting.splice(this.#waiting.indexOf(wake), 1);
				reject(signal!.reason);
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.#waiting.push(wake);
		});
	}

	#holder(): () => void {
		this.#busy++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.#busy--;
			const next = this.#waiting.shift();
			// The slot passes straight to the next waiter, so a newcomer cannot take it in between.
			if (next) next();
			else this.#free++;
		};
	}
}
