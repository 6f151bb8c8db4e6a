import type { Observable, Subscription } from 'rxjs';
import { createValve, type Valve } from '../base/flow/valve.js';
import type { InputLine } from '../domain/task/types.js';

/** Most lines in one batch of input. */
export const BATCH_LINES = 1000;

/**
 * Reads one input to its end in batches of at most BATCH_LINES lines, handing each to
 * `take` in order; the last (possibly empty) with `last` true. `open` gets a valve of
 * BATCH_LINES credits, released when a batch has been taken, so a long file is pulled no
 * faster than its batches are taken. A batch goes as soon as the input pauses, so a URL
 * typed on stdin does not wait for 999 more. When the input fails, what was read before
 * goes (with `last` false) and the promise rejects. When `signal` aborts, nothing more
 * goes and the input is let go (its file closed).
 *
 * @example
 * await readBatches((valve) => readLines(createReadStream('urls.txt'), valve), async (lines, last) => { ... }, signal);
 */
export async function readBatches(
	open: (valve: Valve) => Observable<InputLine>,
	take: (lines: InputLine[], last: boolean) => Promise<void>,
	signal: AbortSignal,
): Promise<void> {
	if (signal.aborted) return;
	const valve = createValve(BATCH_LINES);
	let pending: InputLine[] = [];
	let chain: Promise<void> = Promise.resolve();
	let tick: NodeJS.Immediate | undefined;
	const flush = (last: boolean) => {
		if (tick !== undefined) clearImmediate(tick);
		tick = undefined;
		if (pending.length === 0 && !last) return;
		const lines = pending;
		pending = [];
		chain = chain.then(async () => {
			if (signal.aborted) return;
			await take(lines, last);
			for (let i = 0; i < lines.length; i++) valve.release();
		});
	};
	let subscription: Subscription | undefined;
	let stop: (() => void) | undefined;
	try {
		await new Promise<void>((resolve, reject) => {
			stop = resolve;
			signal.addEventListener('abort', stop, { once: true });
			subscription = open(valve).subscribe({
				next(line) {
					pending.push(line);
					if (pending.length >= BATCH_LINES) flush(false);
					else tick ??= setImmediate(() => flush(false));
				},
				error: reject,
				complete: resolve,
			});
		});
	} catch (error) {
		flush(false);
		await chain;
		throw error;
	} finally {
		signal.removeEventListener('abort', stop!);
	}
	if (signal.aborted) {
		subscription?.unsubscribe();
		if (tick !== undefined) clearImmediate(tick);
		// A reader waiting for credit wakes, sees it was unsubscribed and lets its input go.
		for (let i = valve.inFlight; i > 0; i--) valve.release();
		return;
	}
	flush(true);
	await chain;
}
