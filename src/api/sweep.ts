import { filter, isObservable, map, type Observable } from 'rxjs';
import type { Valve } from '../base/flow/valve.js';
import type { ResourceOptions } from '../pipelines/resources.js';
import { runTasks, withResources } from '../pipelines/run.js';
import { createSummary } from '../pipelines/summary.js';
import { sweepStages } from '../pipelines/sweep.js';
import { normaliseSweepOptions } from '../pipelines/normalise-options.js';
import type { SweepOptionsInput } from '../pipelines/sweep-options.js';
import { lineOf, verdictOf } from '../stages/emit.js';
import { readLines } from '../io/sources/read-lines.js';
import type { InputLine, Task, Verdict } from '../domain/task/types.js';
import { defaultStoreDir } from '../store/default-dir.js';
import { checkedStore } from '../store/given.js';

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
	const { store, clock, random, redis, transport, ...rest } = options;
	const sweepOptions = normaliseSweepOptions(rest);
	const resources = { store: checkedStore(store ?? defaultStoreDir()), clock, random, redis, transport };
	return withResources(resources, sweepOptions, (deps) =>
		runTasks(
			deps,
			{ options: sweepOptions, input: (_deps, valve) => toLines(urls, valve), build: (opened) => sweepStages(opened, sweepOptions) },
			createSummary(),
		).pipe(
			map(toVerdict),
			filter((verdict): verdict is Verdict => verdict !== undefined),
		),
	);
}

/** Library input as lines: an Observable as it pushes, an iterable through the valve. */
export function toLines(urls: UrlSource, valve: Valve): Observable<InputLine> {
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

/**
 * A finished task as the library hands it out: its verdict, or for bad input an `error`
 * verdict with code BAD_INPUT; nothing for skipped lines.
 *
 * @example
 * tasks$.pipe(map(toVerdict), filter(Boolean))
 */
export function toVerdict(task: Task): Verdict | undefined {
	if (task.skip === 'rejected') {
		return { url: task.input, changed: false, reason: 'error', error: { code: 'BAD_INPUT', message: `${lineOf(task)}: ${task.problem}` } };
	}
	return verdictOf(task);
}
