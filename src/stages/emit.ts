import type { MonoTypeOperatorFunction } from 'rxjs';
import { inOrder } from '../base/flow/in-order.js';
import type { Task, Verdict } from '../domain/task/types.js';
import { shownUrl } from '../base/util/shown-url.js';
import { safeJson } from '../base/util/visible.js';
import { OptionError } from '../base/errors/index.js';

/** Which verdicts an output receives. `unchanged` means judged, not changed, and not an error. */
export type When = 'changed' | 'all' | 'error' | 'unchanged';

export interface EmitOptions {
	/** `lines`: one URL per line. `ndjson`: one verdict object per line. */
	format?: 'lines' | 'ndjson';
	/** With `ndjson`, also print unchanged verdicts (`when: 'all'`). */
	all?: boolean;
	/** Which verdicts to print; default `changed` (`all` with `ndjson` and `all: true`). */
	when?: When;
}

/**
 * Whether a verdict is one an output with this `when` receives.
 *
 * @example
 * wanted({ url, changed: false, reason: 'error' }, 'error') // true
 */
export function wanted(verdict: Verdict, when: When): boolean {
	if (when === 'all') return true;
	if (when === 'error') return verdict.reason === 'error';
	// Unchanged means judged: a URL robots.txt kept us from (or deferred) was not.
	if (when === 'unchanged') return !verdict.changed && verdict.reason !== 'error' && verdict.reason !== 'robots' && verdict.reason !== 'deferred';
	return verdict.changed;
}

/**
 * The verdict a task carries, as printed and handed to library callers: with the sitemap
 * `lastmod` it came with, if any.
 *
 * @example
 * verdictOf(task) // { url, changed: true, reason: 'new', ..., lastmod: '2024-05-01' }
 */
export function verdictOf(task: Task): Verdict | undefined {
	return task.verdict && task.lastmod !== undefined ? { ...task.verdict, lastmod: task.lastmod } : task.verdict;
}

export interface EmitTargets {
	/** Resolves once the text is handed to the OS; the commit waits for it. */
	out(text: string): Promise<void>;
	/**
	 * `out` may be called again before its last promise settles, and its texts land in
	 * call order (a stream's writes do; a FileHandle's do not): lines are then written
	 * without waiting for the one before, still passed on in order.
	 */
	ordered?: boolean | undefined;
	/** Diagnostics (bad lines, errors): one line each, never on the data stream. */
	diagnose(text: string): void;
}

/**
 * Writes verdicts to the data output and problems to diagnostics, passing each task
 * on only after its line is written, so the commit stage never records a change the
 * user has not been shown.
 *
 * @example
 * tasks$.pipe(emit({ format: 'ndjson', all: true }, { out: writeStdout, diagnose: warn }), commit({}, store))
 */
export function emit(options: EmitOptions = {}, targets: EmitTargets): MonoTypeOperatorFunction<Task> {
	const format = options.format ?? 'lines';
	if (format !== 'lines' && format !== 'ndjson') throw new OptionError('format', `Expected \`format\` to be lines or ndjson, got \`${String(format)}\``);
	const when = options.when ?? (format === 'ndjson' && options.all ? 'all' : 'changed');
	if (!['changed', 'all', 'error', 'unchanged'].includes(when))
		throw new OptionError('when', `Expected \`when\` to be changed, all, error or unchanged, got \`${String(when)}\``);

	const render = (verdict: Verdict): string | undefined => {
		if (!wanted(verdict, when)) return undefined;
		return format === 'lines' ? `${verdict.url}\n` : `${safeJson(verdict)}\n`;
	};

	// Hosts already told that a content rule could not read their bodies: once per host per run.
	const unreadable = new Set<string>();
	// PDFs whose text could not be read: once per host and reason per run (a missing pdftotext is one line, not one per PDF).
	const unread = new Set<string>();
	return inOrder(
		(task) => {
			if (task.skip === 'rejected') {
				// Line 0 is about a source as a whole, which lineOf names: its input is not echoed.
				targets.diagnose(
					`${lineOf(task)}: ${task.problem}${task.input === '' || task.line === 0 ? '' : `: ${JSON.stringify(shownUrl(task.input).slice(0, 200))}`}`,
				);
				return undefined;
			}
			if (task.notice !== undefined) targets.diagnose(task.notice);
			const verdict = verdictOf(task);
			if (!verdict) return undefined;
			if (verdict.error) targets.diagnose(`${shownUrl(verdict.url)}: ${verdict.error.code}: ${verdict.error.message}`);
			if (task.probe?.content?.unreadable && task.origin !== undefined && !unreadable.has(task.origin)) {
				unreadable.add(task.origin);
				targets.diagnose(
					`${shownUrl(verdict.url)}: its content rule needs HTML or JSON, and this body is neither: hashed as bytes (said once for ${task.origin})`,
				);
			}
			const why = task.probe?.unread ?? task.probe?.audit?.unread;
			if (why !== undefined && !unread.has(`${task.origin} ${why}`)) {
				unread.add(`${task.origin} ${why}`);
				targets.diagnose(
					`${shownUrl(verdict.url)}: PDF text not read: ${why}; judged by its bytes${task.origin === undefined ? '' : ` (said once for ${task.origin})`}`,
				);
			}
			if (verdict.problem === 'no-offer' && firstNoOffer(task))
				targets.diagnose(`no offer found: ${shownUrl(verdict.url)}; try revisit rules test ${shownUrl(verdict.url)} --product`);
			const text = render(verdict);
			return text === undefined ? undefined : targets.out(text);
		},
		{ overlap: targets.ordered === true },
	);
}

/**
 * A product page read now that gave no offer, and that its stored record did not know as
 * one without (under the same rule), nor as one with an offer (that is `selector-gone`,
 * a change of its own): the first sight of a page with no offer, said once.
 */
function firstNoOffer(task: Task): boolean {
	const now = task.probe?.content;
	if (!now?.noOffer) return false;
	const before = task.record?.content;
	return !(before && before.rules === now.rules && (before.noOffer || before.product));
}

/** `line 3`, or `urls.txt line 3` when the task names its source (the source alone for line 0: about the source as a whole). */
export function lineOf(task: Pick<Task, 'line' | 'source'>): string {
	if (task.source === undefined) return `line ${task.line}`;
	return task.line > 0 ? `${task.source} line ${task.line}` : task.source;
}
