import net, { type Socket } from 'node:net';
import { StoreError } from '../../base/errors/index.js';
import { blobFromJson } from '../model/text-blob.js';
import type { Delivery, HostMode, HostRecord, RunDetail, RunRecord, TextBlob, UrlRecord, VersionLog, WatchedStore } from '../model/types.js';
import { BLOB_OPS, jsonLines, REQUEST_LINE_MAX, socketTarget, WIRE_VERSION, type AnswerLine, type ReadOp } from './wire.js';

/** Keys asked in one request at most: a long list goes in several. */
const KEYS_PER_REQUEST = 1000;

/** Room in a request line for what is not its keys or overrides: the version, the op, the brackets. */
const ENVELOPE_BYTES = 256;

/**
 * A request's items (keys, overrides) in groups that each fit one request line: at most
 * KEYS_PER_REQUEST, and within the watch's REQUEST_LINE_MAX as JSON. An item too long
 * for a line by itself goes alone, and the watch refuses it.
 */
function requestGroups<T>(items: readonly T[]): T[][] {
	const groups: T[][] = [];
	let group: T[] = [];
	let bytes = ENVELOPE_BYTES;
	for (const item of items) {
		const size = Buffer.byteLength(JSON.stringify(item)) + 1;
		if (group.length > 0 && (group.length === KEYS_PER_REQUEST || bytes + size > REQUEST_LINE_MAX)) {
			groups.push(group);
			group = [];
			bytes = ENVELOPE_BYTES;
		}
		group.push(item);
		bytes += size;
	}
	if (group.length > 0) groups.push(group);
	return groups;
}

const unwire = (op: ReadOp, value: unknown): unknown => (value === null ? undefined : BLOB_OPS.has(op) ? blobFromJson(JSON.stringify(value)) : value);

function connect(socketPath: string): Promise<Socket> {
	return new Promise((resolve, reject) => {
		const socket = net.connect(socketPath);
		socket.once('connect', () => {
			socket.off('error', reject);
			resolve(socket);
		});
		socket.once('error', reject);
	});
}

/**
 * The store held by a running `revisit watch`, read through it (store/socket/serve.ts): every
 * read of StoreReader, answered by the watch from its open store, and hosts' hand overrides
 * (HostOverrides), the one write a watch takes; it has no other (no `batch`, no
 * `dueQueue`), so a caller that writes cannot be given it. Each read is a connection of its own, so iterations may overlap and a
 * loop left early closes only its own. Open it with `SocketStore.connect`, or let
 * `openStore(dir, { viaWatch: true })` do so when the store is locked.
 *
 * @example
 * const store = await SocketStore.connect('.revisit');
 * if (store) for await (const [, run] of store.runEntries()) console.log(run.urls);
 */
export class SocketStore implements WatchedStore {
	readonly #dir: string;
	readonly #path: string;

	private constructor(dir: string, socketPath: string) {
		this.#dir = dir;
		this.#path = socketPath;
	}

	/** The watch answering for the store `dir`, or undefined when none answers (no socket, or a stale one nobody listens on). */
	static async connect(dir: string): Promise<SocketStore | undefined> {
		const socketPath = await socketTarget(dir);
		if (socketPath === undefined) return undefined;
		const socket = await connect(socketPath).catch(() => undefined);
		if (!socket) return undefined;
		socket.destroy();
		return new SocketStore(dir, socketPath);
	}

	#failed(error: unknown): StoreError {
		if (error instanceof StoreError) return error;
		return new StoreError('STORE_READ_FAILED', `the watch holding store ${this.#dir} stopped answering: ${(error as Error).message}`, { cause: error });
	}

	async *#ask(op: ReadOp | 'overrides', keys?: readonly string[], overrides?: Array<[string, HostMode | null]>): AsyncGenerator<AnswerLine> {
		let socket: Socket;
		try {
			socket = await connect(this.#path);
		} catch (error) {
			throw this.#failed(error);
		}
		try {
			socket.write(`${JSON.stringify({ v: WIRE_VERSION, op, ...(keys ? { keys } : {}), ...(overrides ? { overrides } : {}) })}\n`);
			for await (const line of jsonLines(socket)) {
				const answer = line as AnswerLine;
				if (answer.error)
					throw answer.error.code === 'STORE_LOCKED'
						? this.#refuse()
						: new StoreError('STORE_READ_FAILED', `the watch holding store ${this.#dir} could not read it: ${answer.error.message}`);
				yield answer;
				if (answer.end || answer.items) return;
			}
			throw new Error('it closed the connection before the answer was complete');
		} catch (error) {
			throw this.#failed(error);
		} finally {
			socket.destroy();
		}
	}

	async #get<T>(op: ReadOp, keys: readonly string[]): Promise<Array<T | undefined>> {
		const out: Array<T | undefined> = [];
		for (const group of requestGroups(keys)) {
			for await (const answer of this.#ask(op, group)) {
				for (const value of answer.items ?? []) out.push(unwire(op, value) as T | undefined);
			}
		}
		return out;
	}

	async *#iterate<T>(op: ReadOp, keys?: readonly string[]): AsyncIterable<[string, T]> {
		for await (const answer of this.#ask(op, keys)) {
			if (answer.item) yield [answer.item[0], unwire(op, answer.item[1]) as T];
		}
	}

	getMany(keys: readonly string[]): Promise<Array<UrlRecord | undefined>> {
		return this.#get('getMany', keys);
	}

	getHosts(origins: readonly string[]): Promise<Array<HostRecord | undefined>> {
		return this.#get('getHosts', origins);
	}

	getRunDetails(keys: readonly string[]): Promise<Array<RunDetail | undefined>> {
		return this.#get('getRunDetails', keys);
	}

	getTexts(keys: readonly string[]): Promise<Array<TextBlob | undefined>> {
		return this.#get('getTexts', keys);
	}

	getVersions(keys: readonly string[]): Promise<Array<VersionLog | undefined>> {
		return this.#get('getVersions', keys);
	}

	versionEntries(): AsyncIterable<[string, VersionLog]> {
		return this.#iterate('versionEntries');
	}

	entries(): AsyncIterable<[string, UrlRecord]> {
		return this.#iterate('entries');
	}

	hostEntries(): AsyncIterable<[string, HostRecord]> {
		return this.#iterate('hostEntries');
	}

	runEntries(): AsyncIterable<[string, RunRecord]> {
		return this.#iterate('runEntries');
	}

	textEntries(): AsyncIterable<[string, TextBlob]> {
		return this.#iterate('textEntries');
	}

	deliveryEntries(target?: string): AsyncIterable<[string, Delivery]> {
		return this.#iterate('deliveryEntries', target === undefined ? undefined : [target]);
	}

	#refuse(): StoreError {
		return new StoreError(
			'STORE_LOCKED',
			`store ${this.#dir} is held by a running revisit watch, which takes reads and hosts' hand overrides only: stop the watch to change the store`,
		);
	}

	/**
	 * Hands hosts' hand overrides (`revisit hosts set`) to the watch, which sets them in its
	 * own view of each host (the rest of the record being its own to measure) and stores
	 * them. A watch that takes none refuses with STORE_LOCKED.
	 */
	async overrideHosts(overrides: ReadonlyArray<readonly [origin: string, mode: HostMode | undefined]>): Promise<void> {
		const wired = overrides.map(([origin, mode]): [string, HostMode | null] => [origin, mode ?? null]);
		for (const group of requestGroups(wired)) for await (const _ of this.#ask('overrides', undefined, group));
	}

	async close(): Promise<void> {}
}
