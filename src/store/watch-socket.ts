import { readlink } from 'node:fs/promises';
import path from 'node:path';
import type { Socket } from 'node:net';
import type { HostMode } from './types.js';

/** The name of the socket a watch answers reads on, in its LevelDB store directory. */
export const SOCKET_NAME = 'watch.sock';

/**
 * The longest socket path bound or connected to directly: sun_path holds 108 bytes on
 * Linux and 104 on macOS, with its terminating NUL.
 */
export const SOCKET_PATH_MAX = 100;

/** The wire protocol's version: a request names it, and a watch refuses another. */
export const WIRE_VERSION = 1;

/** The read operations a watch answers: the ValidatorStore's reads, by name. */
export type ReadOp = 'getMany' | 'getHosts' | 'getRunDetails' | 'getTexts' | 'getVersions' | 'entries' | 'hostEntries' | 'runEntries' | 'textEntries' | 'versionEntries' | 'deliveryEntries';

export const READ_OPS: readonly ReadOp[] = ['getMany', 'getHosts', 'getRunDetails', 'getTexts', 'getVersions', 'entries', 'hostEntries', 'runEntries', 'textEntries', 'versionEntries', 'deliveryEntries'];

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
 * The lines of a socket's data, parsed as JSON as they are read: the socket is read no
 * faster than they are taken (an async iterator over a stream pulls on demand).
 *
 * @example
 * for await (const line of jsonLines(socket)) console.log(line);
 */
export async function* jsonLines(socket: Socket): AsyncGenerator<unknown> {
	let rest = '';
	for await (const chunk of socket) {
		rest += (chunk as Buffer).toString('utf8');
		let end = rest.indexOf('\n');
		while (end !== -1) {
			const line = rest.slice(0, end);
			rest = rest.slice(end + 1);
			if (line !== '') yield JSON.parse(line) as unknown;
			end = rest.indexOf('\n');
		}
	}
	if (rest.trim() !== '') yield JSON.parse(rest) as unknown;
}

/**
 * The first line a socket sends, parsed as JSON; undefined when it ends first. Read by a
 * listener taken off after it, not by an async iterator, whose end would destroy the
 * socket and cut short an answer still being written on it.
 *
 * @example
 * const request = await firstLine(socket);
 */
export function firstLine(socket: Socket): Promise<unknown> {
	return new Promise((resolve, reject) => {
		let text = '';
		const done = (): void => {
			socket.off('data', data);
			socket.off('end', ended);
			socket.off('error', reject);
			socket.pause();
		};
		const data = (chunk: Buffer): void => {
			text += chunk.toString('utf8');
			const end = text.indexOf('\n');
			if (end === -1) return;
			done();
			try {
				resolve(JSON.parse(text.slice(0, end)) as unknown);
			} catch (error) {
				reject(error as Error);
			}
		};
		const ended = (): void => {
			done();
			resolve(undefined);
		};
		socket.on('data', data);
		socket.once('end', ended);
		socket.once('error', reject);
	});
}
