import { createReadStream } from 'node:fs';
import { filter, Observable } from 'rxjs';
import { OptionError, PipelineError } from '../base/errors/index.js';
import type { Valve } from '../base/flow/valve.js';
import type { RetryPolicy, SendDeps } from '../net/http/send.js';
import { labelled } from '../io/sources/source.js';
import { sitemapSource } from '../io/sources/sitemap.js';
import { shownUrl } from '../base/util/shown-url.js';
import { readLines } from '../io/sources/read-lines.js';
import type { InputLine } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';
import { readBatches } from './batches.js';
import { watchFile } from './file-watch.js';
import { generations, repeating, rereading } from './reread.js';
import type { Signals } from './signals.js';

/** Some lines of one reading of one input. */
export interface InputBatch {
	/** `args`, `stdin`, an `--input` file's path as given, or a `--sitemap` URL: the name `DueQueue.mark` keeps. */
	source: string;
	/** This reading's number: wall-clock ms at its start, so it grows across restarts as the store's marks need. */
	generation: number;
	/** At most BATCH_LINES; lines with a `problem` included, blank lines and comments not. */
	lines: InputLine[];
	/**
	 * The reading of `source` with this generation is complete: what it no longer lists
	 * may be swept out (`DueQueue.sweepOut`). Only on the last batch of a whole reading of a
	 * file or sitemap; never for the arguments or stdin, which are not read again.
	 */
	complete: boolean;
	/** The last batch of its reading (complete or not); a reading that failed has none. */
	last: boolean;
	/**
	 * An empty batch, after every other: every input's first reading is in (stdin's at its
	 * end), so the watch's start is over. Once, and never when stdin does not end.
	 */
	settled?: true | undefined;
}

export interface WatchInputsSpec {
	/** URLs from the command line, one per item. */
	urls: readonly string[];
	/** One URL per line; its end ends this input only. */
	stdin?: AsyncIterable<Buffer | string> | undefined;
	/** `--input` files, read again when they change and on SIGHUP. */
	files: readonly string[];
	/** `--sitemap` URLs (sitemaps or indexes), read again every `sitemapEveryMs` and on SIGHUP. */
	sitemaps: readonly string[];
	/** Schedule-clock ms between two readings of a sitemap. */
	sitemapEveryMs: number;
}

export interface WatchInputsDeps {
	signals: Signals;
	/** The schedule's clock, which `sitemapEveryMs` is read in. */
	clock: Clock;
	/** Wall ms for schedule ms (`watchClock(...).wallMs`): how long the sitemap timers wait. */
	wallMs(scheduleMs: number): number;
	/** A problem with an input that is not a line's: a sitemap or file that could not be read. */
	diagnose(message: string): void;
	/** The HTTP client, limiter and retries sitemaps are fetched with; needed when there are sitemaps. */
	http?: { deps: SendDeps; retry: RetryPolicy } | undefined;
	/** One credit taken per batch before it goes out; release it once the batch is applied. Unbounded when absent. */
	valve?: Valve | undefined;
	/** Wall clock for generation numbers. */
	wall?: (() => number) | undefined;
	/** How long a file must be still after a change before it is read (wall ms). */
	quietMs?: number | undefined;
}

const NO_VALVE: Pick<Valve, 'acquire'> = { acquire: () => Promise.resolve() };

/**
 * The URLs a watch takes in, as batches per reading of each input: the arguments and
 * stdin once, each `--input` file at the start and again when it changes or on SIGHUP,
 * each sitemap at the start and again every `sitemapEveryMs` or on SIGHUP. It never
 * completes (stdin's end ends only stdin). A file that can't be read at the start fails
 * it with SOURCE_FAILED; one that can't be read later, or a sitemap that can't be read in
 * full, is diagnosed and its reading is not complete, so it takes nothing out of the
 * schedule. Once every input's first reading is over, an empty `settled` batch says so.
 * A SIGHUP with no file or sitemap to read again is diagnosed. Unsubscribing stops every
 * watcher, timer and signal listener.
 *
 * @example
 * watchInputs(
 * 	{ urls: [], files: ['urls.txt'], sitemaps: [], sitemapEveryMs: 86_400_000 },
 * 	{ signals: processSignals(), clock, wallMs: clock.wallMs, diagnose },
 * )
 *   .pipe(concatMap((batch) => admit(queue, batch, { now: clock.now() })))
 */
export function watchInputs(spec: WatchInputsSpec, deps: WatchInputsDeps): Observable<InputBatch> {
	if (spec.sitemaps.length > 0) {
		if (!(spec.sitemapEveryMs > 0 && Number.isFinite(spec.sitemapEveryMs)))
			throw new OptionError('sitemapEveryMs', `Expected sitemapEveryMs above 0, got ${spec.sitemapEveryMs}`);
		if (deps.http === undefined) throw new OptionError('http', 'Sitemaps need deps.http to be fetched with');
	}
	return new Observable<InputBatch>((subscriber) => {
		const controller = new AbortController();
		const { signal } = controller;
		const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
		const valve = deps.valve ?? NO_VALVE;
		const generation = generations(deps.wall ?? Date.now);
		const stops: Array<() => void> = [];
		const rereads: Array<() => void> = [];

		/** One reading of `source` in batches; complete when it is read again later and `whole()` says nothing was missed. */
		const read = (source: string, open: (valve: Valve) => Observable<InputLine>, again: boolean, whole: () => boolean = () => true): Promise<void> => {
			const number = generation();
			return readBatches(
				open,
				async (lines, last) => {
					await Promise.race([valve.acquire(), stopped]);
					if (!signal.aborted) subscriber.next({ source, generation: number, lines, complete: again && last && whole(), last });
				},
				signal,
			);
		};
		const failed = (what: string) => (error: unknown) => deps.diagnose(`${what}: ${(error as Error).message}`);
		// Each input's first reading, read or failed: once all are over, the `settled` batch.
		const firsts: Array<Promise<void>> = [];
		const firstOf = () => {
			let over!: () => void;
			firsts.push(new Promise<void>((resolve) => (over = resolve)));
			return over;
		};

		if (spec.urls.length > 0)
			firsts.push(read('args', (valve) => readLines(argumentLines(spec.urls), valve).pipe(labelled('args')), false).catch(failed('arguments')));
		const stdin = spec.stdin;
		if (stdin !== undefined) firsts.push(read('stdin', (valve) => readLines(stdin, valve).pipe(labelled('stdin')), false).catch(failed('stdin')));

		for (const file of spec.files) {
			let first = true;
			const firstOver = firstOf();
			const reading = rereading(async () => {
				try {
					await read(file, (valve) => readLines(createReadStream(file), valve).pipe(labelled(file)), true);
				} catch (error) {
					const message = `${file}: cannot read URLs: ${(error as Error).message}`;
					if (first) subscriber.error(new PipelineError('SOURCE_FAILED', message, { cause: error }));
					else deps.diagnose(`${message}; its URLs stay in the schedule`);
				}
				first = false;
				firstOver();
			}, signal);
			try {
				stops.push(watchFile(file, reading.trigger, failed(`${file}: cannot watch for changes`), deps.quietMs));
			} catch (error) {
				subscriber.error(new PipelineError('SOURCE_FAILED', `${file}: cannot watch for changes: ${(error as Error).message}`, { cause: error }));
				break;
			}
			rereads.push(reading.trigger);
		}

		for (const url of spec.sitemaps) {
			const context = { ...deps.http!, stdin: NO_INPUT, stderr: process.stderr, env: process.env };
			const firstOver = firstOf();
			const reading = rereading(async () => {
				timer.again();
				let whole = true;
				// A sitemap (or one of an index's) that can't be read in full must not take its URLs out: its own problems are not lines.
				const ofSitemap = (line: InputLine) => line.problem !== undefined && line.from === undefined;
				const lines = (valve: Valve) =>
					sitemapSource({ url })({ ...context, valve }).pipe(
						filter((line) => {
							if (!ofSitemap(line)) return true;
							whole = false;
							deps.diagnose(`${line.source}${line.line > 0 ? `:${line.line}` : ''}: ${line.problem}`);
							return false;
						}),
					);
				await read(url, lines, true, () => whole).catch((error: unknown) => {
					whole = false;
					failed(`sitemap ${shownUrl(url)}`)(error);
				});
				if (!whole && !signal.aborted) deps.diagnose(`sitemap ${shownUrl(url)}: not read in full, so none of its URLs leave the schedule`);
				firstOver();
			}, signal);
			const timer = repeating(reading.trigger, spec.sitemapEveryMs, deps.clock, deps.wallMs);
			stops.push(timer.stop);
			rereads.push(reading.trigger);
		}

		stops.push(
			deps.signals.onHup(() => {
				// Each reading says what it found once it is in (watch/say.ts); with nothing to read, say so now.
				if (rereads.length === 0) deps.diagnose('SIGHUP: nothing to read again (no --input file or --sitemap)');
				rereads.forEach((reread) => reread());
			}),
		);
		// Started once every watcher is on, so a change made while a file is first read is not missed.
		if (!subscriber.closed) rereads.forEach((reread) => reread());
		void Promise.all(firsts).then(() => {
			if (!signal.aborted) subscriber.next({ source: 'inputs', generation: 0, lines: [], complete: false, last: false, settled: true });
		});
		return () => {
			controller.abort();
			for (const stop of stops) stop();
		};
	});
}

/** The arguments as lines of text, so they are read by the rules stdin is. */
async function* argumentLines(urls: readonly string[]): AsyncIterable<string> {
	for (const url of urls) yield `${url.replaceAll('\n', ' ')}\n`;
}

const NO_INPUT: AsyncIterable<string> = (async function* () {})();
