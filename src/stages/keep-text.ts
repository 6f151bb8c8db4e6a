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

const whyNot = (reason: string): string => (reason === 'new' ? 'first-sight' : reason === 'gone' ? 'gone' : 'not-read');

/**
 * For each change whose body was read, the word diff of its counted text against the
 * text kept at its previous change (`task.wordDiff`), and the new text kept in its record
 * for the next one, within the total. Text is kept only for pages that changed; an
 * unchanged page's record carries its text on. A record that leaves the store's text
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
		if (verdict.reason === 'new') {
			task.wordDiff = { why: 'first-sight' };
			return task;
		}
		if (old === undefined) task.wordDiff = { why: options.keep ? 'no-earlier-text' : 'off' };
		else {
			const diff = wordDiff(old.text, counted.text);
			task.wordDiff = diff ? { hunks: diff.hunks, why: 'diff', ...(diff.cut || old.cut || counted.cut ? { cut: true } : {}) } : { why: 'too-different' };
		}
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
		budget.bytes === undefined && task.verdict?.changed === true && task.next !== undefined && task.verdict.reason !== 'new' && (task.record?.text !== undefined || (options.keep && (task.probe?.counted ?? task.probe?.audit?.counted) !== undefined));
	return mergeMap((task: Task) => (needsBudget(task) ? from(budget.load().then(() => judge(task))) : of(judge(task))), 1);
}
