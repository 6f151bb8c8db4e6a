import type { StoreOperation, UrlRecord, ValidatorStore } from './types.js';

/**
 * An in-process store, for tests and short-lived library use.
 *
 * @example
 * const store = new MemoryStore();
 * await lastValueFrom(sweep(['https://example.org/'], { store }).pipe(toArray()));
 */
export class MemoryStore implements ValidatorStore {
	readonly #records = new Map<string, UrlRecord>();

	async getMany(keys: readonly string[]): Promise<Array<UrlRecord | undefined>> {
		return keys.map((key) => structuredClone(this.#records.get(key)));
	}

	async batch(operations: readonly StoreOperation[]): Promise<void> {
		for (const operation of operations) {
			if (operation.type === 'put') {
				this.#records.set(operation.key, structuredClone(operation.value));
			} else {
				this.#records.delete(operation.key);
			}
		}
	}

	async *entries(): AsyncIterable<[string, UrlRecord]> {
		const keys = [...this.#records.keys()].sort();
		for (const key of keys) {
			const value = this.#records.get(key);
			if (value) yield [key, structuredClone(value)];
		}
	}

	async close(): Promise<void> {}
}
