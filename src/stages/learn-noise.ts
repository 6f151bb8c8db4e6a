import type { MonoTypeOperatorFunction } from 'rxjs';
import { applyNoise, learnPlaces, type LearnOptions } from '../domain/content/noise.js';
import { hashText } from '../domain/content/content-hash.js';
import { keptAgain } from '../domain/content/word-diff.js';
import { mergeAsync } from '../base/flow/merge-async.js';
import { hostLearned, noiseOf, pageLearned, placesAt } from '../net/hosts/noise.js';
import { send, type RetryPolicy, type SendDeps } from '../net/http/send.js';
import { probeTarget } from '../net/http/target.js';
import type { HostRecord } from '../store/model/types.js';
import type { Task } from '../domain/task/types.js';

/** Where learned noise goes beyond the page: the run's host book (see net/hosts/book.ts) and its clock. */
export interface LearnHooks {
	/** A URL of `origin` learned noise for the first time: `revisit stats` counts it. */
	onFirstNoise?(origin: string): void;
	host?: { get(origin: string): HostRecord; set(origin: string, host: HostRecord): void } | undefined;
	now?: (() => number) | undefined;
}

/**
 * `--learn-noise`: a URL seen for the first time, or whose content changed, is fetched a
 * second time at once. Where the two back-to-back answers differ is noise by definition
 * (domain/content/noise.ts): in HTML and JSON, the places (element, text, attribute, pointer),
 * in plain text token patterns. The page keeps the places with the time it learned them,
 * and its host counts them per URL template: a place learned on HOST_PAGES pages of a
 * template applies to all of them (net/hosts/noise.ts). The stored content hash is taken again
 * without them, and so is the text kept for the next diff. A change already seen stays reported: the old text is gone, so nothing
 * says the change lay only in the newly learned places. `learns` says, per URL, whether
 * to learn and what its rule protects (false: not at all). The second fetch is a
 * follow-up of the first: it goes ahead of its host's queue and takes a slot like any
 * request.
 *
 * @example
 * pipe(compare(options, clock), learnNoiseStage({ ...retry, concurrency: 24 }, { ...deps, host: book, now: clock.now }))
 */
export function learnNoiseStage(
	options: RetryPolicy & { concurrency: number; learns?: ((url: string) => LearnOptions | false) | undefined; keepTextBytes?: number | undefined },
	deps: SendDeps & LearnHooks,
): MonoTypeOperatorFunction<Task> {
	const learns = options.learns ?? (() => ({}));
	const now = deps.now ?? Date.now;
	const wanted = (task: Task) =>
		!task.skip &&
		task.verdict?.changed === true &&
		task.probe?.content?.text !== undefined &&
		task.next !== undefined &&
		task.url !== undefined &&
		learns(task.url) !== false;
	const learnOne = async (task: Task, signal: AbortSignal): Promise<Task> => {
		const url = task.url!;
		const first = task.probe!.content!.text!;
		const target = probeTarget(url, task.record);
		const again = await send(deps, options, { method: 'GET', url: target, origin: task.origin, headers: {}, bodyMode: 'hash', followUp: true }, signal);
		task.noiseFetched = true;
		const second = again.content?.text;
		if (second === undefined) return task;
		const found = learnPlaces(first, second, learns(url) || {});
		if (found.length === 0) return task;
		const time = now();
		const origin = task.origin;
		if (origin !== undefined && deps.host) deps.host.set(origin, hostLearned(deps.host.get(origin), url, found, time));
		const hostNoise = origin !== undefined ? deps.host?.get(origin).noise : undefined;
		const record = task.record ?? undefined;
		const learned = pageLearned(record?.learned, found, time);
		if (record?.learned === undefined && record?.noise === undefined && origin !== undefined) deps.onFirstNoise?.(origin);
		const next = task.next!;
		next.learned = learned;
		const places = placesAt(noiseOf(next, hostNoise, url), time);
		const masked = applyNoise(first, places, record?.noise);
		if (next.content) next.content = { ...next.content, hash: hashText(masked), noiseAt: time };
		// The text kept for the next diff loses the places too, so that the diff shows only what counts.
		if (task.probe!.counted) task.probe!.counted = keptAgain(task.probe!.counted, masked, options.keepTextBytes);
		task.noise = places.length + (record?.noise?.length ?? 0);
		return task;
	};
	return mergeAsync((task) => (wanted(task) ? (signal) => learnOne(task, signal) : undefined), options.concurrency);
}
