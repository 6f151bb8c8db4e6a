import type { Readable, Writable } from 'node:stream';
import { visible } from '../base/util/visible.js';

/** The process edges a command touches, injectable so commands can be run in-process. */
export interface CliIo {
	stdin: Readable;
	stdout: Writable;
	stderr: Writable & { isTTY?: boolean };
	env: NodeJS.ProcessEnv;
	/** Resolves when the user asks to stop (SIGINT/SIGTERM). */
	interrupted: Promise<string>;
}

export function processIo(): CliIo {
	return {
		stdin: process.stdin,
		stdout: process.stdout,
		stderr: process.stderr,
		env: process.env,
		interrupted: new Promise((resolve) => {
			process.once('SIGINT', () => resolve('SIGINT'));
			process.once('SIGTERM', () => resolve('SIGTERM'));
		}),
	};
}

// What a visibleIo stream answers with the stream it writes to (a symbol: no stream has it of its own).
const RAW = Symbol('revisit.rawStream');

/**
 * The io with stdout and stderr that write every string through `visible`: no escape
 * sequence, C1 control, `\r` or `\b` a page wrote (in a title, a text, a header, a URL
 * quoted in a diagnostic) reaches the terminal as it is, whichever command writes it.
 * Bytes (a `--sink command`'s own output piped through) pass as they are. JSON written
 * with `safeJson` holds none of them, so NDJSON passes unchanged. The sequences revisit
 * writes itself (the progress line's redraw, the word diff's colours) go to `rawStream`.
 *
 * @example
 * const io = visibleIo(processIo());
 * io.stderr.write('price 15 EUR\x1b[2J\n'); // writes 'price 15 EUR^[[2J\n'
 */
export function visibleIo(io: CliIo): CliIo {
	return { ...io, stdout: visibleStream(io.stdout), stderr: visibleStream(io.stderr) };
}

function visibleStream<Stream extends Writable>(stream: Stream): Stream {
	if (rawStream(stream) !== stream) return stream;
	const write = (chunk: unknown, ...rest: unknown[]): boolean =>
		(stream.write as (...args: unknown[]) => boolean)(typeof chunk === 'string' ? visible(chunk) : chunk, ...rest);
	// A proxy rather than a wrapper stream: writes stay synchronous and in order with the stream's own, and isTTY, columns, events and pipe() are the stream's.
	const shown = new Proxy(stream, {
		get(target, key) {
			if (key === 'write') return write;
			if (key === RAW) return stream;
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === 'function' ? value.bind(target) : value;
		},
	});
	return shown;
}

/**
 * The stream a `visibleIo` stream writes to, for the terminal sequences revisit writes
 * itself (a stream of another io as it is): whatever is written here is shown by the
 * terminal as written, so only text already made visible goes with them.
 *
 * @example
 * rawStream(io.stderr).write(`\r\x1b[K${visibleLine(progress)}`);
 */
export const rawStream = <Stream extends Writable>(stream: Stream): Stream => (stream as unknown as Record<symbol, Stream | undefined>)[RAW] ?? stream;
