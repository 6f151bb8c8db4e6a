import { MemoryLevel } from 'memory-level';
import { LevelDueQueue } from './due/queue.js';
import type { DueQueue, QueueClock } from '../model/due.js';
import type { Delivery, HostRecord, RunDetail, RunRecord, StoreOperation, TextBlob, UrlRecord, ValidatorStore, VersionLog } from '../model/types.js';

/**
 * An in-process store, for tests and short-lived library use.
 *
 * @example
 * const store = new MemoryStore();
 * await lastValueFrom(sweep(['https://example.org/'], { store }).pipe(toArray()));
 */
export class MemoryStore implements ValidatorStore {
	readonly #records = new Map<string, UrlRecord>();
	readonly #hosts = new Map<string, HostRecord>();
	readonly #runs = new Map<string, RunRecord>();
	readonly #details = new Map<string, RunDetail>();
	readonly #texts = new Map<string, TextBlob>();
	readonly #versions = new Map<string, VersionLog>();
	readonly #deliveries = new Map<string, Delivery>();
	#due: MemoryLevel<string, unknown> | undefined;

	async getMany(keys: readonly string[]): Promise<Array<UrlRecord | undefined>> {
		return keys.map((key) => structuredClone(this.#records.get(key)));
	}

	async getHosts(origins: readonly string[]): Promise<Array<HostRecord | undefined>> {
		return origins.map((origin) => structuredClone(this.#hosts.get(origin)));
	}

	async batch(operations: readonly StoreOperation[]): Promise<void> {
		for (const operation of operations) {
			if (operation.type === 'put') this.#records.set(operation.key, structuredClone(operation.value));
			else if (operation.type === 'del') this.#records.delete(operation.key);
			else if (operation.type === 'putHost') this.#hosts.set(operation.key, structuredClone(operation.value));
			else if (operation.type === 'delHost') this.#hosts.delete(operation.key);
			else if (operation.type === 'putRunDetail') this.#details.set(operation.key, structuredClone(operation.value));
			else if (operation.type === 'delRunDetail') this.#details.delete(operation.key);
			else if (operation.type === 'putText') this.#texts.set(operation.key, copyBlob(operation.value));
			else if (operation.type === 'delText') this.#texts.delete(operation.key);
			else if (operation.type === 'putVersions') this.#versions.set(operation.key, copyBlob(operation.value));
			else if (operation.type === 'delVersions') this.#versions.delete(operation.key);
			else if (operation.type === 'putDelivery') this.#deliveries.set(operation.key, structuredClone(operation.value));
			else if (operation.type === 'delDelivery') this.#deliveries.delete(operation.key);
			else this.#runs.set(operation.key, structuredClone(operation.value));
		}
	}

	entries(): AsyncIterable<[string, UrlRecord]> {
		return sorted(this.#records);
	}

	hostEntries(): AsyncIterable<[string, HostRecord]> {
		return sorted(this.#hosts);
	}

	runEntries(): AsyncIterable<[string, RunRecord]> {
		return sorted(this.#runs);
	}

	async getRunDetails(keys: readonly string[]): Promise<Array<RunDetail | undefined>> {
		return keys.map((key) => structuredClone(this.#details.get(key)));
	}

	async getTexts(keys: readonly string[]): Promise<Array<TextBlob | undefined>> {
		return keys.map((key) => {
			const blob = this.#texts.get(key);
			return blob && copyBlob(blob);
		});
	}

	async *textEntries(): AsyncIterable<[string, TextBlob]> {
		for (const key of [...this.#texts.keys()].sort()) {
			const blob = this.#texts.get(key);
			if (blob) yield [key, copyBlob(blob)];
		}
	}

	async getVersions(keys: readonly string[]): Promise<Array<VersionLog | undefined>> {
		return keys.map((key) => {
			const log = this.#versions.get(key);
			return log && copyBlob(log);
		});
	}

	async *versionEntries(): AsyncIterable<[string, VersionLog]> {
		for (const key of [...this.#versions.keys()].sort()) {
			const log = this.#versions.get(key);
			if (log) yield [key, copyBlob(log)];
		}
	}

	async *deliveryEntries(target?: string): AsyncIterable<[string, Delivery]> {
		for await (const entry of sorted(this.#deliveries)) if (target === undefined || entry[0].startsWith(`${target}/`)) yield entry;
	}

	/** The schedule in a memory-level database: the same code as the LevelDB store's, so one contract holds for both. */
	dueQueue(clock: QueueClock): Promise<DueQueue> {
		this.#due ??= new MemoryLevel<string, unknown>({ valueEncoding: 'json' });
		return LevelDueQueue.open(this.#due as never, clock);
	}

	async close(): Promise<void> {
		await this.#due?.close();
	}
}

// structuredClone would turn the Buffer into a plain Uint8Array.
const copyBlob = <T extends { z: Buffer }>(blob: T): T => ({ ...blob, z: Buffer.from(blob.z) });

async function* sorted<T>(map: Map<string, T>): AsyncIterable<[string, T]> {
	for (const key of [...map.keys()].sort()) {
		const value = map.get(key);
		if (value !== undefined) yield [key, structuredClone(value)];
	}
}
