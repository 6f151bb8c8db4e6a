import { estimateRate } from '../domain/schedule/rate.js';
import { urlOfLine } from '../stages/normalise.js';
import type { DueEntries, DueEntry, DueListings } from '../store/model/due.js';
import type { InputBatch } from './inputs.js';

/** A line of input that is not a URL the watch can check, named as `source:line` for diagnostics. */
export interface InputProblem {
	source: string;
	line: number;
	text: string;
	problem: string;
}

export interface Admitted {
	/** URLs new to the schedule, put due now. */
	added: number;
	/** URLs taken out because the complete reading no longer lists them. */
	removed: string[];
	/** URLs the batch lists (each once): those not `added` were scheduled already. */
	listed: number;
	problems: InputProblem[];
}

export interface AdmitOptions {
	/** The schedule's time now: when new URLs fall due. */
	now: number;
	/** The change rate (per day) a new URL is scheduled with until it is observed; the estimator's prior when absent. */
	rate?: number | undefined;
}

/**
 * Applies a batch of input to the schedule: each line's URL in normal form (as the
 * sweep's normalise stage reads it), those not yet scheduled put due now, all of them
 * marked as listed by the batch's reading, and, when the batch completes its reading,
 * the URLs its input no longer lists taken out. URLs already scheduled keep their due
 * time. Lines that are not URLs come back as problems.
 *
 * @example
 * watchInputs(spec, deps).pipe(concatMap((batch) => admit(queue, batch, { now: clock.now() })))
 */
export async function admit(queue: DueEntries & DueListings, batch: InputBatch, options: AdmitOptions): Promise<Admitted> {
	const rate = options.rate ?? estimateRate([]);
	const problems: InputProblem[] = [];
	// One entry per URL: a list may name one URL twice, or in two spellings of one normal form.
	const origins = new Map<string, string>();
	for (const line of batch.lines) {
		const result = urlOfLine(line);
		if ('url' in result) origins.set(result.url, result.origin);
		else problems.push({ source: line.source ?? batch.source, line: line.line, text: line.text, problem: result.problem });
	}
	const urls = [...origins.keys()];
	let added = 0;
	if (urls.length > 0) {
		const known = await queue.has(urls);
		const fresh: DueEntry[] = urls.filter((_, i) => !known[i]).map((url) => ({ url, origin: origins.get(url)!, due: options.now, rate }));
		// Put before marked: a crash between the two leaves a URL scheduled and not yet marked, which the next reading marks.
		if (fresh.length > 0) await queue.put(fresh);
		added = fresh.length;
		await queue.mark(batch.source, urls, batch.generation);
	}
	const removed = batch.complete ? await queue.sweepOut(batch.source, batch.generation) : [];
	return { added, removed, listed: urls.length, problems };
}
