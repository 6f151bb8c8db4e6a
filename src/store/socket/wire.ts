import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { constants } from 'node:buffer';
import type { Socket } from 'node:net';
import type { HostMode, StoreReader } from '../model/types.js';

/** The name of the socket a watch answers reads on, in its LevelDB store directory. */
export const SOCKET_NAME = 'watch.sock';

/**
 * The longest socket path bound or connected to directly: sun_path holds 108 bytes on
 * Linux and 104 on macOS, with its terminating NUL.
 */
export const SOCKET_PATH_MAX = 100;

const NEWLINE = 0x0a;

/** The wire protocol's version: a request names it, and a watch refuses another. */
export const WIRE_VERSION = 1;

/** The read operations a watch answers: StoreReader's reads, by name. */
export type ReadOp = Exclude<keyof StoreReader, 'readPass' | 'close'>;

export const READ_OPS: readonly ReadOp[] = [
	'getMany',
	'getHosts',
	'getRunDetails',
	'getTexts',
	'getVersions',
	'entries',
	'hostEntries',
	'runEntries',
	'textEntries',
	'versionEntries',
	'deliveryEntries',
];

/** The reads whose values hold compressed bytes, sent in base64. */
export const BLOB_OPS: ReadonlySet<string> = new Set(['getTexts', 'textEntries', 'getVersions', 'versionEntries']);

/** One request: a line of JSON, the only one a connection carries. */
export interface ReadRequest {
	v: number;
	op: ReadOp | 'overrides';
	/** The keys of a get; of `deliveryEntries`, the one target asked for, if any. */
	keys?: string[];
	/** With `overrides`: hosts' hand overrides to set (a mode) or drop (null). */
	overrides?: Array<[string, HostMode | null]>;
}

/**
 * One line of an answer: `items` (a get's values, null where none), `item` (one entry of
 * an iteration), `end` (the iteration is over), or `error` (the read failed there).
 */
export interface AnswerLine {
	items?: unknown[];
	item?: [string, unknown];
	end?: true;
	error?: { code: string; message: string };
}

/**
 * Where the watch holding the store `dir` answers: `dir/watch.sock`. A path too long for
 * a socket is a symbolic link there to a socket in the temporary directory, which is
 * then the path connected to.
 *
 * @example
 * await socketTarget('/var/lib/revisit') // '/var/lib/revisit/watch.sock'
 */
export async function socketTarget(dir: string): Promise<string | undefined> {
	const at = path.resolve(dir, SOCKET_NAME);
	if (Buffer.byteLength(at) <= SOCKET_PATH_MAX) return at;
	const target = await readlink(at).catch(() => undefined);
	return target !== undefined && path.isAbsolute(target) && Buffer.byteLength(target) <= SOCKET_PATH_MAX ? target : undefined;
}

/**
 * The longest answer line a reader takes: the longest string a JavaScript engine makes
 * (about 512 MiB). An answer may be large (a get of 1000 pages' kept texts), so this is
 * not a guard against the watch, which is the reader's own; it makes a line past it an
 * error that names it rather than a crash.
 */
const ANSWER_LINE_MAX = constants.MAX_STRING_LENGTH;

/**
 * The lines of a socket's data, parsed as JSON as they are read: the socket is read no
 * faster than they are taken (an async iterator over a stream pulls on demand). A line
 * is kept as the chunks it came in until its newline, and each chunk is searched once.
 *
 * @example
 * for await (const line of jsonLines(socket)) console.log(line);
 */
export async function* jsonLines(socket: Socket, maxLineBytes = ANSWER_LINE_MAX): AsyncGenerator<unknown> {
	let pending: Buffer[] = [];
	let size = 0;
	const line = (last: Buffer): unknown => {
		const bytes = Buffer.concat([...pending, last]);
		pending = [];
		size = 0;
		const text = bytes.toString('utf8');
		return text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
	};
	for await (const chunk of socket as AsyncIterable<Buffer>) {
		let start = 0;
		for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
			const parsed = line(chunk.subarray(start, end));
			start = end + 1;
			if (parsed !== undefined) yield parsed;
		}
		if (start < chunk.length) {
			size += chunk.length - start;
			if (size > maxLineBytes) throw new Error(`an answer line is longer than ${maxLineBytes} bytes`);
			pending.push(chunk.subarray(start));
		}
	}
	const parsed = line(Buffer.alloc(0));
	if (parsed !== undefined) yield parsed;
}

/** The longest request line a watch reads: 64 KiB, far more than a request of 1000 keys of URLs of common length needs. */
export const REQUEST_LINE_MAX = 64 * 1024;

/** How long a watch waits for a connection's whole request line. */
export const REQUEST_DEADLINE_MS = 10_000;

/** The codes a watch refuses a request line with: past REQUEST_LINE_MAX, or not whole within its deadline. */
export type RefusedCode = 'REQUEST_TOO_LONG' | 'REQUEST_TIMEOUT';

/** A connection's first line: the request parsed, or why it was refused; undefined when the connection ended first. */
export type FirstLine = { request: unknown } | { refused: { code: RefusedCode; message: string } } | undefined;

/**
 * The first line a socket sends, parsed as JSON, or a refusal: past `maxBytes` before
 * its newline (REQUEST_TOO_LONG), or not whole within `deadlineMs` (REQUEST_TIMEOUT);
 * undefined when the socket ends first. The bytes are counted as they come and no more
 * are read past either: a client cannot make the watch hold more than `maxBytes` of its
 * line. Read by a listener taken off after it, not by an async iterator, whose end would
 * destroy the socket and cut short an answer still being written on it. Rejects when the
 * line is not JSON.
 *
 * @example
 * const first = await firstLine(socket, { maxBytes: REQUEST_LINE_MAX, deadlineMs: REQUEST_DEADLINE_MS });
 */
export function firstLine(socket: Socket, { maxBytes, deadlineMs }: { maxBytes: number; deadlineMs: number }): Promise<FirstLine> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const settle = (outcome: () => FirstLine): void => {
			clearTimeout(timer);
			socket.off('data', data);
			socket.off('end', ended);
			socket.off('close', ended);
			socket.off('error', failed);
			socket.pause();
			try {
				resolve(outcome());
			} catch (error) {
				reject(error as Error);
			}
		};
		const refuse = (code: RefusedCode, message: string) => settle(() => ({ refused: { code, message } }));
		const data = (chunk: Buffer): void => {
			const end = chunk.indexOf(NEWLINE);
			const length = size + (end === -1 ? chunk.length : end);
			if (length > maxBytes) return refuse('REQUEST_TOO_LONG', `a request is one line of at most ${maxBytes} bytes`);
			if (end === -1) {
				chunks.push(chunk);
				size = length;
				return;
			}
			chunks.push(chunk.subarray(0, end));
			settle(() => ({ request: JSON.parse(Buffer.concat(chunks, length).toString('utf8')) as unknown }));
		};
		const ended = (): void => settle(() => undefined);
		const failed = (error: Error): void =>
			settle(() => {
				throw error;
			});
		const timer = setTimeout(() => refuse('REQUEST_TIMEOUT', `a request line must come whole within ${deadlineMs} ms`), deadlineMs);
		socket.on('data', data);
		socket.once('end', ended);
		// A client that resets the connection sends no end: its close settles it, not the deadline.
		socket.once('close', ended);
		socket.once('error', failed);
	});
}
