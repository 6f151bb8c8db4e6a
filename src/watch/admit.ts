import { normaliseUrl } from '../stages/normalise.js';
import type { InputLine } from '../stages/read-lines.js';
import type { DueQueue } from '../store/due/types.js';
import { RATE_PRIOR } from '../schedule/rate.js';

/** One reading's worth of input lines: `complete` on the last batch of a reading of `source` (a file, a sitemap) that is read again. */
export interface InputBatch {
	source: string;
	/** Grows with each reading of the source, across restarts too (the schedule keeps it). */
	generation: number;
	lines: InputLine[];
	complete: boolean;
	/** Sources read once (arguments, stdin) never take URLs out. */
	reread?: boolean | undefined;
}

/** What one batch did to the schedule. */
export interface Admitted {
	added: number;
	removed: string[];
}

/**
 * Applies a batch of input lines to the schedule: each new URL, normalised as the sweep
 * does, is put due now (new URLs go first); one already scheduled keeps its place. A
 * re-read source's URLs are marked with the reading's generation, and at the end of the
 * reading what it no longer lists leaves the schedule. A line that is not a URL is named
 * through `diagnose` (`urls.txt line 3: …`) and skipped.
 *
 * @example
 * await admit(queue, { source: 'args', generation: 1, lines: [{ line: 1, text: 'https://example.org/' }], complete: true }, { now: Date.now(), diagnose: console.error })
 */
export async function admit(queue: DueQueue, batch: InputBatch, options: { now: number; gapMs?: number | undefined; diagnose(message: string): void }): Promise<Admitted> {
	const urls: string[] = [];
	const origins = new Map<string, string>();
	for (const line of batch.lines) {
		const parsed = line.problem === undefined ? normaliseUrl(line.text) : { problem: line.problem };
		if ('problem' in parsed) {
			options.diagnose(`${line.source ?? batch.source} line ${line.line}: ${parsed.problem}`);
			continue;
		}
		if (origins.has(parsed.url)) continue;
		urls.push(parsed.url);
		origins.set(parsed.url, parsed.origin);
	}
	const known = await queue.has(urls);
	const fresh = urls.filter((_, i) => !known[i]);
	// The gap first: a URL put due now is claimed at once, by this process or another on the
	// same store, and its origin's second claim must already wait for the gap. Every origin
	// listed, not only new ones, so that a restart with another --host-rate applies it.
	if (options.gapMs !== undefined) for (const origin of new Set(origins.values())) await queue.gap(origin, options.gapMs);
	// A new URL's prior rate (schedule/rate.ts): its place in the histogram until it is checked.
	const prior = RATE_PRIOR.changes / RATE_PRIOR.days;
	if (fresh.length > 0) await queue.put(fresh.map((url) => ({ url, origin: origins.get(url)!, due: options.now, rate: prior })));
	if (batch.reread) await queue.mark(batch.source, urls, batch.generation);
	const removed = batch.reread && batch.complete ? await queue.sweepOut(batch.source, batch.generation) : [];
	return { added: fresh.length, removed };
}
