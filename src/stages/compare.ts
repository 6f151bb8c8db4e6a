import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { HostNoise } from '../store/model/types.js';
import { applyNoise, maskedHash } from '../domain/content/noise.js';
import { keptAgain } from '../domain/content/word-diff.js';
import { noiseOf, placesAt } from '../net/hosts/noise.js';
import { hashText } from '../domain/content/content-hash.js';
import type { Task } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';
import { judge } from './judge.js';

export interface CompareOptions {
	/** Recorded with new validators, so a later run under another encoding can drop the ETag. */
	acceptEncoding: string;
	/** `--verify-every` in ms (0 = off): a new URL's first verification is spread over it. */
	verifyEveryMs?: number | undefined;
	/** The noise a URL's host learned on several pages (see net/hosts/noise.ts), applied with the URL's own. */
	hostNoise?: ((origin: string) => readonly HostNoise[] | undefined) | undefined;
	/** `--keep-text` in bytes: the kept text made again with learned noise out is cut there too. */
	keepTextBytes?: number | undefined;
	/** A product page was read: whether it gave an offer (for `revisit stats`' list of pages without one). */
	offerRead?: ((origin: string, url: string, found: boolean) => void) | undefined;
}

/**
 * Attaches `verdict` and `next` to every probed task (in place: a task belongs to one
 * stage at a time).
 *
 * @example
 * tasks$.pipe(probe(options, deps), compare({ acceptEncoding: 'gzip' }, clock))
 */
export function compare(options: CompareOptions, clock: Clock): MonoTypeOperatorFunction<Task> {
	const { acceptEncoding } = options;
	const verifyEveryMs = options.verifyEveryMs ?? 0;
	return map((task) => {
		// A task judged already (a crawl's sweep phase) is judged again only after a fetch clears its verdict.
		if (task.skip || !task.probe || task.url === undefined || task.verdict) return task;
		// A 304 against a weak tag promises semantic, not byte, equality: the verdict says so for archivers.
		const weakSent = task.plan?.sendEtag === true && task.record?.etag?.startsWith('W/') === true;
		// Learned noise comes out of the counted text before it is judged.
		const text = task.probe.content?.text;
		const now = clock.now();
		const masked = text === undefined ? undefined : withNoise(task, text, now, options.hostNoise?.(task.origin ?? ''));
		if (masked) {
			task.probe.content = { ...task.probe.content!, hash: masked.then, noiseAt: now };
			// A diff shows what counted: the kept text loses the same places the hash does.
			if (task.probe.counted) task.probe.counted = keptAgain(task.probe.counted, masked.text, options.keepTextBytes);
			task.noise = masked.places;
		}
		const { verdict, next } = judge(task.url, task.record ?? null, task.probe, acceptEncoding, now, weakSent, verifyEveryMs);
		if (masked && next?.content) {
			// Judged by the noise the stored hash was taken under; kept under today's.
			next.content.hash = masked.now;
			task.probe.content = { ...task.probe.content!, hash: masked.now };
			if (masked.ambiguous && verdict.reason === 'new-body') Object.assign(verdict, { changed: false, reason: 'rebaseline' });
		}
		task.verdict = verdict;
		task.next = next;
		const content = task.probe.content;
		if (options.offerRead && task.origin !== undefined && verdict.reason !== 'error' && (content?.noOffer || content?.offer))
			options.offerRead(task.origin, task.url, content.offer !== undefined);
		return task;
	});
}

/**
 * The counted text's hashes under learned noise: `now` under every place that applies
 * today (the page's own and its host's), `then` under those that applied when the stored
 * hash was taken, which is what it is compared with. When the two sets differ and the
 * text differs under the old one, the difference may lie in a newly learned place:
 * `ambiguous`, judged a `rebaseline` rather than a change. Undefined without noise.
 */
function withNoise(
	task: Task,
	text: string,
	now: number,
	host: readonly HostNoise[] | undefined,
): { now: string; then: string; ambiguous: boolean; text: string; places: number } | undefined {
	const record = task.record ?? undefined;
	const entries = noiseOf(record, host, task.url!);
	if (entries.length === 0 && record?.noise === undefined) return undefined;
	const today = placesAt(entries, now);
	const masked = applyNoise(text, today, record?.noise);
	const hashNow = hashText(masked);
	const places = today.length + (record?.noise?.length ?? 0);
	const stored = record?.content;
	const before = placesAt(entries, stored?.noiseAt ?? Number.NEGATIVE_INFINITY);
	if (stored === undefined || before.join('\n') === today.join('\n')) return { now: hashNow, then: hashNow, ambiguous: false, text: masked, places };
	const then = maskedHash(text, before, record?.noise);
	return { now: hashNow, then, ambiguous: then !== stored.hash, text: masked, places };
}
