import { TextDecoder } from 'node:util';
import { Observable } from 'rxjs';
import type { Valve } from '../../base/flow/valve.js';
import type { InputLine } from '../../domain/task/types.js';
import { OptionError } from '../../base/errors/index.js';

export interface ReadLinesOptions {
	/** Lines longer than this many bytes are reported, not parsed. */
	maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const OVERLONG = Symbol('overlong');

/**
 * Streams an input of newline-separated text as lines, trimming whitespace and
 * skipping blank lines and `#` comments. It pulls from `input` only while `valve`
 * has credit, so a million-line stdin is never held in memory.
 *
 * @example
 * readLines(process.stdin, valve).pipe(normalise())
 */
export function readLines(input: AsyncIterable<Buffer | string>, valve: Valve, options: ReadLinesOptions = {}): Observable<InputLine> {
	const maxLineBytes = options.maxLineBytes ?? 8192;
	if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) {
		throw new OptionError('maxLineBytes', `Expected maxLineBytes to be a positive integer, got ${maxLineBytes}`);
	}
	const decoder = new TextDecoder('utf-8', { fatal: true });

	return new Observable<InputLine>((subscriber) => {
		let stopped = false;
		let lineNumber = 0;

		// Returns a promise only when the line must wait for credit: most lines go straight through.
		const emit = (bytes: Buffer | typeof OVERLONG): Promise<void> | undefined => {
			lineNumber++;
			const line =
				bytes === OVERLONG
					? { line: lineNumber, text: '', problem: `line is longer than ${maxLineBytes} bytes` }
					: toLine(bytes, lineNumber, maxLineBytes, decoder);
			if (!line) return undefined;
			if (valve.tryAcquire()) {
				if (!stopped) subscriber.next(line);
				return undefined;
			}
			return valve.acquire().then(() => {
				if (!stopped) subscriber.next(line);
			});
		};

		const pump = async (): Promise<void> => {
			let pending: Buffer = Buffer.alloc(0);
			// A line past the limit is dropped as it streams in, so one endless line can't fill memory.
			let overlong = false;
			for await (const chunk of input) {
				if (stopped) return;
				const buffer: Buffer = Buffer.concat([pending, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
				let start = 0;
				let end: number;
				while ((end = buffer.indexOf(NEWLINE, start)) !== -1) {
					const waiting = emit(overlong ? OVERLONG : buffer.subarray(start, end));
					if (waiting) await waiting;
					overlong = false;
					if (stopped) return;
					start = end + 1;
				}
				pending = buffer.subarray(start);
				if (pending.length > maxLineBytes) {
					overlong = true;
					pending = Buffer.alloc(0);
				}
			}
			if (overlong) await emit(OVERLONG);
			else if (pending.length > 0) await emit(pending);
		};

		pump().then(
			() => subscriber.complete(),
			(error: unknown) => subscriber.error(error),
		);
		return () => {
			stopped = true;
		};
	});
}

function toLine(bytes: Buffer, line: number, maxLineBytes: number, decoder: TextDecoder): InputLine | undefined {
	if (bytes.length > maxLineBytes) {
		return { line, text: '', problem: `line is longer than ${maxLineBytes} bytes` };
	}
	let text: string;
	try {
		text = decoder.decode(bytes);
	} catch {
		return { line, text: '', problem: 'line is not valid UTF-8' };
	}
	text = text.trim();
	if (text === '' || text.startsWith('#')) return undefined;
	if (text.includes('\0')) return { line, text: text.replaceAll('\0', '\\0'), problem: 'line contains a NUL byte' };
	return { line, text };
}
