import { chmod, mkdtemp, rm, symlink, unlink } from 'node:fs/promises';
import net, { type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { StoreError } from '../../base/errors/index.js';
import { safeJson } from '../../base/util/visible.js';
import { blobToJson } from '../model/text-blob.js';
import type { HostMode, HostOverrides, StoreReader } from '../model/types.js';
import {
	BLOB_OPS,
	firstLine,
	READ_OPS,
	REQUEST_DEADLINE_MS,
	REQUEST_LINE_MAX,
	SOCKET_NAME,
	SOCKET_PATH_MAX,
	WIRE_VERSION,
	type AnswerLine,
	type ReadOp,
	type ReadRequest,
} from './wire.js';

const MODES: ReadonlyArray<unknown> = ['conditional', 'hash-only', 'unconditional'] satisfies HostMode[];

/**
 * What a watch does with a hand override of a host's mode (`revisit hosts set`; `undefined`
 * hands it back to measurement): the only write it takes through its socket, since the
 * rest of a host's record is its own measurement, held in memory as it runs.
 */
export type OverrideHosts = HostOverrides['overrideHosts'];

/** A store's reads served on its socket; `close` stops answering and takes the socket away. */
export interface StoreServer {
	/** The socket's path (the one in the store directory, or where its link points). */
	readonly path: string;
	close(): Promise<void>;
}

/** Values on the wire: JSON, a text blob's (or version log's) compressed bytes in base64. */
const wire = (op: ReadRequest['op'], value: unknown): unknown =>
	value === undefined ? null : BLOB_OPS.has(op) ? JSON.parse(blobToJson(value as { z: Buffer })) : value;

/** Writes a line, and waits for the socket to drain when its buffer is full: an iteration goes no faster than the reader reads. */
async function send(socket: Socket, line: AnswerLine): Promise<void> {
	if (socket.destroyed) throw new Error('the reader went away');
	if (socket.write(`${safeJson(line)}\n`)) return;
	await new Promise<void>((resolve, reject) => {
		const done = (): void => {
			socket.off('drain', done);
			socket.off('close', gone);
			resolve();
		};
		const gone = (): void => {
			socket.off('drain', done);
			reject(new Error('the reader went away'));
		};
		socket.once('drain', done);
		socket.once('close', gone);
	});
}

async function answer(store: StoreReader, socket: Socket, request: ReadRequest, override: OverrideHosts | undefined): Promise<void> {
	const { op } = request;
	switch (op) {
		case 'overrides':
			if (!override) throw new StoreError('STORE_LOCKED', 'this watch takes no hand overrides');
			await override((request.overrides ?? []).map(([origin, mode]) => [origin, mode ?? undefined]));
			await send(socket, { items: [] });
			return;
		case 'getMany':
		case 'getHosts':
		case 'getRunDetails':
		case 'getTexts':
		case 'getVersions': {
			const values: unknown[] = await store[op](request.keys ?? []);
			await send(socket, { items: values.map((value) => wire(op, value)) });
			return;
		}
		default:
			// Leaving the loop early (the reader went away) closes the store's iterator.
			for await (const [key, value] of (op === 'deliveryEntries' ? store.deliveryEntries(request.keys?.[0]) : store[op]()) as AsyncIterable<[string, unknown]>)
				await send(socket, { item: [key, wire(op, value)] });
			await send(socket, { end: true });
	}
}

function parseRequest(line: unknown): ReadRequest | string {
	const request = line as Partial<ReadRequest> | null;
	if (typeof request !== 'object' || request === null) return 'a request is one JSON object';
	if (request.v !== WIRE_VERSION)
		return `this watch speaks version ${WIRE_VERSION} of the read protocol, not ${JSON.stringify(request.v)}: use the same revisit for both`;
	if (request.op === 'overrides')
		return Array.isArray(request.overrides) &&
			request.overrides.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string' && (entry[1] === null || MODES.includes(entry[1])))
			? (request as ReadRequest)
			: 'overrides must be a list of [origin, mode or null]';
	if (!READ_OPS.includes(request.op as ReadOp)) return `${JSON.stringify(request.op)} is not a read this watch answers (it answers ${READ_OPS.join(', ')})`;
	if (request.keys !== undefined && !(Array.isArray(request.keys) && request.keys.every((key) => typeof key === 'string')))
		return 'keys must be a list of strings';
	return request as ReadRequest;
}

/** How long a refused connection's bytes are read and dropped after its answer, at most. */
const LINGER_MS = 2000;

/**
 * Answers a refused connection and closes it, "lingering" as HTTP servers do: what the
 * client still sends is read and dropped (nothing kept) until it closes, or for
 * LINGER_MS at most. Destroyed at once, the connection could take the answer with it:
 * the client's next write would fail (EPIPE) before it read what was sent.
 */
function lingerClose(socket: Socket, answer: string): void {
	const timer = setTimeout(() => socket.destroy(), LINGER_MS);
	socket.once('close', () => clearTimeout(timer));
	socket.end(answer);
	socket.resume();
}

/** What a connection may send: its one request line's bytes at most, and how long it has to send it whole. */
interface RequestBounds {
	maxBytes: number;
	deadlineMs: number;
}

async function serveConnection(store: StoreReader, socket: Socket, override: OverrideHosts | undefined, bounds: RequestBounds): Promise<void> {
	try {
		const first = await firstLine(socket, bounds);
		if (first === undefined) return void socket.end();
		if ('refused' in first) {
			return void lingerClose(socket, `${JSON.stringify({ error: first.refused } satisfies AnswerLine)}\n`);
		}
		const request = parseRequest(first.request);
		if (typeof request === 'string') await send(socket, { error: { code: 'STORE_READ_FAILED', message: request } });
		else await answer(store, socket, request, override);
		socket.end();
	} catch (error) {
		const code = error instanceof StoreError ? error.code : 'STORE_READ_FAILED';
		if (!socket.destroyed) socket.end(`${JSON.stringify({ error: { code, message: (error as Error).message } } satisfies AnswerLine)}\n`);
	}
}

/**
 * Answers the reads of `store` on a Unix socket in the LevelDB store directory `dir`
 * (`watch.sock`), so that `revisit history`, `report`, `stats`, `due` and `export` work
 * while a watch holds the store (see socket-store.ts): one request a connection, a line
 * of JSON, answered in lines of JSON; an iteration streams, at the pace its reader reads.
 * Whoever calls this holds the store's lock, so a socket already there is one a killed
 * process left: it is replaced. Of writes, it takes only hosts' hand overrides, and only
 * with `override`. Where `dir/watch.sock` is too long a path for a socket,
 * the socket is made in a private temporary directory and `dir/watch.sock` links to it.
 * Only the socket's owner may connect (mode 0600). A request is one line of at most
 * `requestLineBytes` (64 KiB), sent whole within `requestDeadlineMs` (10 s); past either,
 * the connection is answered REQUEST_TOO_LONG or REQUEST_TIMEOUT and closed, with no more
 * of it read.
 *
 * @example
 * const server = await serveStore('.revisit', store);
 * await server.close();
 */
export async function serveStore(
	dir: string,
	store: StoreReader,
	options: { override?: OverrideHosts | undefined; requestLineBytes?: number; requestDeadlineMs?: number } = {},
): Promise<StoreServer> {
	const bounds: RequestBounds = { maxBytes: options.requestLineBytes ?? REQUEST_LINE_MAX, deadlineMs: options.requestDeadlineMs ?? REQUEST_DEADLINE_MS };
	const at = path.resolve(dir, SOCKET_NAME);
	await unlink(at).catch(() => {});
	let socketPath = at;
	let privateDir: string | undefined;
	if (Buffer.byteLength(at) > SOCKET_PATH_MAX) {
		privateDir = await mkdtemp(path.join(os.tmpdir(), 'revisit-'));
		socketPath = path.join(privateDir, SOCKET_NAME);
	}
	const connections = new Set<Socket>();
	const server = net.createServer((socket) => {
		connections.add(socket);
		socket.on('close', () => connections.delete(socket));
		// A reader that goes away mid-answer is its own business.
		socket.on('error', () => {});
		void serveConnection(store, socket, options.override, bounds);
	});
	try {
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(socketPath, () => {
				server.off('error', reject);
				resolve();
			});
		});
		await chmod(socketPath, 0o600);
		if (privateDir) await symlink(socketPath, at);
	} catch (error) {
		server.close();
		if (privateDir) await rm(privateDir, { recursive: true, force: true });
		throw new StoreError('STORE_OPEN_FAILED', `cannot answer reads of ${dir} on ${at}: ${(error as Error).message}`, { cause: error });
	}
	return {
		path: socketPath,
		close: async () => {
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				for (const socket of connections) socket.destroy();
			});
			if (privateDir) {
				await unlink(at).catch(() => {});
				await rm(privateDir, { recursive: true, force: true });
			}
			// server.close removes the socket file it made; a link is ours to remove.
			await unlink(at).catch(() => {});
		},
	};
}
