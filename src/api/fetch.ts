import { filter, identity, map, pipe, type Observable } from 'rxjs';
import { fetchOptions, fetchStages } from '../pipelines/fetch.js';
import { runTasks, withResources } from '../pipelines/run.js';
import { createSummary } from '../pipelines/summary.js';
import { writeBodies } from '../stages/write-bodies.js';
import type { Verdict } from '../domain/task/types.js';
import { toLines, toVerdict, type SweepApiOptions, type UrlSource } from './sweep.js';
import { defaultStoreDir } from '../store/default-dir.js';
import { checkedStore } from '../store/given.js';

export type FetchApiOptions = SweepApiOptions & {
	/** Write each body under this directory (a folder per host, and index.ndjson), as `revisit fetch --out`; otherwise each verdict carries its body. */
	out?: string | undefined;
};

/** A fetched URL's verdict; without `out`, with its decoded body and Content-Type. */
export type FetchedVerdict = Verdict & { body?: Buffer; contentType?: string };

/**
 * Downloads each URL with GET (at the fetch phase's limits: 6 in flight, 2 per host,
 * unless given), judges the body against the store, and emits one verdict per URL:
 * `revisit fetch` as a function. With `out`, bodies are written to that directory
 * before their state is committed; without it, each verdict carries its body.
 *
 * @example
 * import { fetch } from 'revisit';
 * fetch(['https://example.org/'], { store: '.revisit' })
 *   .subscribe((v) => v.body && console.log(v.url, v.body.length));
 */
export function fetch(urls: UrlSource, options: FetchApiOptions = {}): Observable<FetchedVerdict> {
	const { store, clock, random, redis, transport, out, ...rest } = options;
	const resolved = fetchOptions(rest);
	const resources = { store: checkedStore(store ?? defaultStoreDir()), clock, random, redis, transport };
	return withResources(resources, resolved, (deps) =>
		runTasks(
			deps,
			{
				options: resolved,
				input: (_deps, valve) => toLines(urls, valve),
				build: (opened) =>
					pipe(fetchStages(opened, resolved), out === undefined ? identity : writeBodies({}, { sink: { type: 'dir', dir: out }, clock: opened.clock })),
			},
			createSummary(),
		).pipe(
			map((task): FetchedVerdict | undefined => {
				const verdict = toVerdict(task);
				const body = task.probe?.body;
				return verdict && body ? { ...verdict, body, ...(task.probe?.contentType ? { contentType: task.probe.contentType } : {}) } : verdict;
			}),
			filter((verdict): verdict is FetchedVerdict => verdict !== undefined),
		),
	);
}
