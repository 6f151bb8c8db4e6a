import { from, mergeMap, of, type MonoTypeOperatorFunction } from 'rxjs';
import { keptSize, wordDiff } from '../content/word-diff.js';
import type { KeptText, ValidatorStore } from '../store/types.js';
import type { Task } from '../types.js';

export interface KeepTextOptions {
	/** Keep new text (`--keep-text` and `--keep-text-total` both above 0); off, kept text is dropped as pages change. */
	keep: boolean;
	/** Bytes of counted text the store may hold in all. */
	totalBytes: number;
}

/**
 * How much counted text the store holds, as the runs counted it: the last run row's
 * `textBytes`, read the first time a change needs it, plus what this run added and freed.
 * An estimate that does not go down when `revisit prune` deletes records with text.
 */
export interface TextBudget {
	/** Undefined until loaded (and unchanged by this run while it is). */
	bytes: number | undefined;
	load(): Promise<number>;
}

/** A budget over `store`'s run rows. */
export function createTextBudget(store: ValidatorStore): TextBudget {
	const budget: TextBudget = {
		bytes: undefined,
		async load() {
			if (budget.bytes !== undefined) return budget.bytes;
			let last = 0;
			for await (const [, run] of store.runEntries()) if (run.textBytes !== undefined) last = run.textBytes;
			budget.bytes ??= last;
			return budget.bytes;
		},
	};
	return budget;
}

/**
 * The word diff of a page's kept text against its new text. Where either was cut at the
 * per-page cap, `kept` says how far the texts go: a change past it cannot show, so a diff
 * with no change in words is `beyond-cut`, never "only whitespace". Texts that are the
 * same (a change in markup only, as visible text reads it) are `same-text`.
 */
function diffOf(old: KeptText, counted: { text: string; cut: boolean }): NonNullable<Task['wordDiff']> {
	const kept = Math.min(old.cut ? Buffer.byteLength(old.text) : Infinity, counted.cut ? Buffer.byteLength(counted.text) : Infinity);
	const cut = Number.isFinite(kept) ? { kept } : {};
	const diff = wordDiff(old.text, counted.text);
	if (!diff) return { why: 'too-different', ...cut };
	const words = diff.hunks.some((hunk) => hunk.some(([op, text]) => op !== 0 && /\S/.test(text)));
	if (!words && Number.isFinite(kept)) return { why: 'beyond-cut', ...cut };
	// The hash moved but the text compared did not: markup, attributes, or what visible text leaves out.
	if (diff.hunks.length === 0) return { why: 'same-text' };
	return { hunks: diff.hunks, why: 'diff', ...(diff.cut ? { cut: true } : {}), ...cut };
}

const whyNot = (reason: string): string => (reason === 'new' ? 'first-sight' : reason === 'gone' ? 'gone' : 'not-read');

/**
 * For each change whose body was read, the word diff of its counted text against the
 * text kept at its previous change (`task.wordDiff`), and the new text kept in its record
 * for the next one, within the total. Text is kept from a page's first sight on (a `new`
 * verdict), so that its first change has a diff; an unchanged page's record carries its
 * text on. A record that leaves the store's text
 * (a page gone, keeping off, no room) frees its share of the total.
 *
 * @example
 * tasks$.pipe(keepText(createTextBudget(store), { keep: true, totalBytes: 16 << 20 }), commit(store))
 */
export function keepText(budget: TextBudget, options: KeepTextOptions): MonoTypeOperatorFunction<Task> {
	const judge = (task: Task): Task => {
		const { verdict, next, record } = task;
		if (!verdict || !next) return task;
		const old = record?.text;
		if (!verdict.changed) {
			if (old !== undefined && next.text === undefined && next.status >= 200 && next.status < 300) next.text = old;
			return task;
		}
		const counted = task.probe?.counted ?? task.probe?.audit?.counted;
		if (!counted) {
			task.wordDiff = { why: whyNot(verdict.reason) };
			if (old !== undefined) budget.bytes! -= keptSize(old);
			return task;
		}
		if (verdict.reason === 'new') task.wordDiff = { why: 'first-sight' };
		else if (old === undefined) task.wordDiff = { why: options.keep ? 'no-earlier-text' : 'off' };
		else task.wordDiff = diffOf(old, counted);
		const kept: KeptText = counted.cut ? { text: counted.text, cut: true } : { text: counted.text };
		const size = keptSize(kept);
		const held = budget.bytes! - keptSize(old);
		if (options.keep && held + size <= options.totalBytes) {
			next.text = kept;
			budget.bytes = held + size;
		} else {
			budget.bytes = held;
			if (options.keep && task.wordDiff.why === 'no-earlier-text') task.wordDiff.why = 'total-cap';
		}
		return task;
	};
	// The budget is read once, the first time a change has text to keep or free; after that every task passes at once.
	const needsBudget = (task: Task): boolean =>
		budget.bytes === undefined && task.verdict?.changed === true && task.next !== undefined && (task.record?.text !== undefined || (options.keep && (task.probe?.counted ?? task.probe?.audit?.counted) !== undefined));
	return mergeMap((task: Task) => (needsBudget(task) ? from(budget.load().then(() => judge(task))) : of(judge(task))), 1);
}
