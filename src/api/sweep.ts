import { filter, isObservable, map, Observable, type Subscription } from 'rxjs';
import { createValve, type Valve } from '../flow/valve.js';
import { openSweepDeps, type ResourceOptions } from '../pipelines/resources.js';
import { sweepStages } from '../pipelines/sweep.js';
import { normaliseSweepOptions, type SweepOptionsInput } from '../pipelines/sweep-options.js';
import { commit } from '../stages/commit.js';
import { readLines, type InputLine } from '../stages/read-lines.js';
import type { Task, Verdict } from '../types.js';

export type UrlSource = Iterable<string> | AsyncIterable<string> | Observable<string>;

export type SweepApiOptions = SweepOptionsInput & Partial<ResourceOptions>;

/**
 * Sweeps `urls` and emits one verdict per distinct URL (bad input comes out as an
 * `error` verdict with code `BAD_INPUT`). Each verdict's state is committed to the
 * store right after your `next` handler returns, so a crash inside it loses nothing.
 * The store defaults to `$REVISIT_STORE` or `./.revisit`.
 *
 * @example
 * import { sweep } from 'revisit';
 * sweep(['https://example.org/'], { store: '.revisit' })
 *   .subscribe((v) => v.changed && console.log(v.url));
 */
export function sweep(urls: UrlSource, options: SweepApiOptions = {}): Observable<Verdict> {
	const { store, clock, random, ...rest } = options;
	const sweepOptions = normaliseSweepOptions(rest);
	const storeOption = store ?? process.env.REVISIT_STORE ?? '.revisit';

	return new Observable<Verdict>((subscriber) => {
		let subscription: Subscription | undefined;
		let closeDeps: (() => Promise<void>) | undefined;
		let done = false;
		openSweepDeps({ store: storeOption, clock, random }, sweepOptions).then(
			({ deps, close }) => {
				closeDeps = close;
				if (done) return void close();
				const valve = createValve(sweepOptions.highWater);
				deps.hooks = { release: () => valve.release() };
				subscription = toLines(urls, valve)
					.pipe(
						sweepStages(deps, sweepOptions),
						commit(deps.store, { extra: deps.book.drain }),
						map((task) => {
							if (!task.creditReturned) valve.release();
							return toVerdict(task);
						}),
						filter((verdict): verdict is Verdict => verdict !== undefined),
					)
					.subscribe({
						next: (verdict) => subscriber.next(verdict),
						error: (error: unknown) => close().finally(() => subscriber.error(error)),
						complete: () => close().then(() => subscriber.complete(), (error: unknown) => subscriber.error(error)),
					});
			},
			(error: unknown) => subscriber.error(error),
		);
		return () => {
			done = true;
			if (subscription && !subscription.closed) {
				subscription.unsubscribe();
				void closeDeps?.();
			}
		};
	});
}

function toLines(urls: UrlSource, valve: Valve): Observable<InputLine> {
	if (isObservable(urls)) {
		let line = 0;
		// An Observable pushes at its own pace: the valve can't pause it.
		return urls.pipe(map((text) => ({ line: ++line, text })));
	}
	return readLines(withNewlines(urls), valve);
}

async function* withNewlines(urls: Iterable<string> | AsyncIterable<string>): AsyncIterable<string> {
	for await (const url of urls) yield `${url.replaceAll('\n', ' ')}\n`;
}

function toVerdict(task: Task): Verdict | undefined {
	if (task.skip === 'rejected') {
		return { url: task.input, changed: false, reason: 'error', error: { code: 'BAD_INPUT', message: `line ${task.line}: ${task.problem}` } };
	}
	return task.verdict;
}

