import { RevisitError } from '../base/errors/index.js';
import type { Writable } from 'node:stream';
import { batcher } from '../net/transports/threads/batch.js';
import { visible, visibleLine } from '../base/util/visible.js';
import { rawStream } from './io.js';

/**
 * Stderr for humans: diagnostics always, a live progress line only when stderr is a
 * TTY, and nothing else. The progress line is cleared before a diagnostic is written,
 * so the two never interleave. What a line quotes (a URL, a header, a page's text) is
 * made visible (`visible`; the progress line one line, `visibleLine`): the only control
 * sequence written is the progress line's own redraw.
 *
 * @example
 * const term = createTerminal(process.stderr, { quiet: false });
 * term.progress(() => formatSummary(summary));
 */
export interface Terminal {
	diagnose(text: string): void;
	/** Starts redrawing `render()` every 200 ms, TTY only. */
	progress(render: () => string): void;
	/** Writes `render()` as a line every `everyMs` (wall ms) where there is no progress line: not a TTY, not quiet; 0 never. */
	status(render: () => string, everyMs: number): void;
	/** Stops progress and prints the final summary unless quiet. */
	finish(summary: string): void;
	/** Stops progress and clears its line, printing nothing (the run failed; its error follows). */
	stop(): void;
}

export function createTerminal(given: Writable & { isTTY?: boolean }, options: { quiet: boolean }): Terminal {
	const live = given.isTTY === true && !options.quiet;
	// Its own `\r\x1b[K` must reach the terminal as written; the texts are made visible here.
	const stream = rawStream(given);
	let timer: NodeJS.Timeout | undefined;
	let statusTimer: NodeJS.Timeout | undefined;
	let shown = false;

	const clear = (): void => {
		if (shown) stream.write('\r\x1b[K');
		shown = false;
	};

	return {
		diagnose(text) {
			clear();
			stream.write(`revisit: ${visible(text)}\n`);
		},
		progress(render) {
			if (!live) return;
			timer = setInterval(() => {
				clear();
				stream.write(visibleLine(render()).slice(0, (process.stderr.columns || 100) - 1));
				shown = true;
			}, 200);
			timer.unref();
		},
		status(render, everyMs) {
			if (live || options.quiet || !(everyMs > 0)) return;
			statusTimer = setInterval(() => stream.write(`revisit: ${visibleLine(render())}\n`), everyMs);
			statusTimer.unref();
		},
		finish(summary) {
			clearInterval(timer);
			clearInterval(statusTimer);
			clear();
			if (!options.quiet) stream.write(`revisit: ${visible(summary)}\n`);
		},
		stop() {
			clearInterval(timer);
			clearInterval(statusTimer);
			clear();
		},
	};
}

/**
 * A promise-returning writer for a data stream: resolves once the OS has the bytes,
 * which is the point at which a verdict counts as shown. A reader that went away
 * (`revisit sweep | head`) ends the run with OUTPUT_CLOSED; what was not written is
 * not committed, so it is reported again next time.
 */
export function createWriter(stream: Writable): (text: string) => Promise<void> {
	// The write callback carries the error; without a listener the stream would also throw it.
	stream.on('error', () => {});
	return (text) =>
		new Promise((resolve, reject) => {
			stream.write(text, (error) => {
				if (!error) resolve();
				else if ((error as { code?: string }).code === 'EPIPE') reject(new RevisitError('OUTPUT_CLOSED', 'stdout was closed by its reader', { cause: error }));
				else reject(error);
			});
		});
}

/**
 * Like `createWriter`, but the texts of one event-loop turn go out in one write, each
 * promise resolving when that write has reached the OS. A first sweep prints most of its
 * URLs, and a write per line was one system call per URL. Calls may overlap (the emit
 * stage's `ordered`): the texts keep their call order.
 *
 * @example
 * const out = createBatchWriter(process.stdout);
 * await Promise.all([out('a\n'), out('b\n')]); // one write of 'a\nb\n'
 */
export function createBatchWriter(stream: Writable): (text: string) => Promise<void> {
	const write = createWriter(stream);
	const lines = batcher<{ text: string; resolve(): void; reject(error: unknown): void }>((items) => {
		write(items.map((item) => item.text).join('')).then(
			() => items.forEach((item) => item.resolve()),
			(error: unknown) => items.forEach((item) => item.reject(error)),
		);
	});
	return (text) => new Promise((resolve, reject) => lines.push({ text, resolve, reject }));
}
