import { diffArrays } from 'diff';
import type { WordDiffHunks } from '../../store/model/types.js';
import type { ProbeResult } from '../task/types.js';
import { visibleText } from './visible-text.js';
import { prettyJson } from './json-text.js';

/**
 * Text cut to at most `cap` UTF-8 bytes (never in the middle of a character), and
 * whether it was cut.
 *
 * @example
 * keptText('héllo', 2) // { text: 'h', cut: true }
 */
export function keptText(text: string, cap: number): { text: string; cut: boolean } {
	if (text.length * 3 <= cap || Buffer.byteLength(text) <= cap) return { text, cut: false };
	// A cut inside a multi-byte character decodes to U+FFFD: drop it.
	return {
		text: Buffer.from(text)
			.subarray(0, cap)
			.toString('utf8')
			.replace(/\uFFFD+$/, ''),
		cut: true,
	};
}

/**
 * A kept text made again from its whole counted text with learned noise masked
 * (`masked`): read as the first was (visible text, JSON pretty-printed, or as counted)
 * and cut at `cap`.
 *
 * @example
 * keptAgain({ text: 'Hats 5', cut: false, visible: true }, '<p>5</p>', 32768) // { text: '5', cut: false, visible: true }
 */
export function keptAgain(counted: NonNullable<ProbeResult['counted']>, masked: string, cap = Number.POSITIVE_INFINITY): NonNullable<ProbeResult['counted']> {
	if (counted.json) return { ...keptText(prettyJson(masked), cap), json: true };
	if (!counted.visible) return keptText(masked, cap);
	return { ...keptText(visibleText(masked), cap), visible: true };
}

export interface WordDiffOptions {
	/** Unchanged tokens (words and runs of whitespace) kept either side of a change (default 16). */
	context?: number;
	/** Characters kept over all hunks; past it the diff is cut (default 8192). */
	maxChars?: number;
	/** Edit distance in tokens past which two texts count as too different to diff (default 5000). */
	maxEdits?: number;
}

const tokens = (text: string): string[] => text.match(/\s+|\S+/g) ?? [];

const CURRENCY = '[$€£¥₹¢₩₽₺]';
const SPACE = '(?:[ \\u00A0\\u202F]|&nbsp;|&#160;)';
// A number with its sign, separators and currency or percent, whole: `$24.50`, `1.234,56 €`, `24,50&nbsp;€`, `-3.5%`.
// A sign only where no word or number ends just before (`2026-12-04` is three numbers, not two negative ones).
const NUMBER =
	`(?:(?<![\\p{L}\\p{N}_.,])[-+−])?(?:${CURRENCY}${SPACE}?)?\\p{Nd}+(?:[.,'’]\\p{Nd}+|` +
	`[\\u00A0\\u202F]\\p{Nd}{3}(?!\\p{Nd}))*(?:${SPACE}?${CURRENCY}|%)?(?![\\p{L}\\p{N}_])`;
const DIFF_TOKENS = new RegExp(`${NUMBER}|[\\p{L}\\p{M}\\p{N}_]+|\\s+|.`, 'gsu');

/**
 * The tokens a word diff compares: numbers whole (see NUMBER), words, runs of whitespace,
 * and each other character on its own.
 *
 * @example
 * diffTokens('was $24.50, now 21,00 €') // ['was', ' ', '$24.50', ',', ' ', 'now', ' ', '21,00 €']
 */
export function diffTokens(text: string): string[] {
	return text.match(DIFF_TOKENS) ?? [];
}

/**
 * The word diff of two counted texts as hunks: each change with `context` unchanged
 * tokens either side, changes closer than twice that in one hunk, the rest left out.
 * Whitespace runs are parts of their own, so that a reader can ignore them; a number with
 * its separators and currency is one token (`$24.50` → `$21.00`, never `$2421.5000`). Undefined
 * when the texts are too different to diff cheaply (jsdiff's maxEditLength).
 *
 * @example
 * wordDiff('price 5 EUR', 'price 6 EUR') // { hunks: [[[0, 'price'], [0, ' '], [-1, '5'], [1, '6'], [0, ' '], [0, 'EUR']]], cut: false }
 */
export function wordDiff(before: string, after: string, options: WordDiffOptions = {}): { hunks: WordDiffHunks; cut: boolean } | undefined {
	const context = options.context ?? 16;
	const maxChars = options.maxChars ?? 8192;
	const changes = diffArrays(diffTokens(before), diffTokens(after), { maxEditLength: options.maxEdits ?? 5000 });
	if (changes === undefined) return undefined;
	const parts = changes.map((change): [0 | 1 | -1, string] => [change.added ? 1 : change.removed ? -1 : 0, change.value.join('')]);
	const hunks: WordDiffHunks = [];
	let hunk: Array<[0 | 1 | -1, string]> | undefined;
	let chars = 0;
	let cut = false;
	const push = (op: 0 | 1 | -1, text: string): boolean => {
		if (text === '') return true;
		const room = maxChars - chars;
		if (room <= 0) return false;
		const kept = text.length > room ? text.slice(0, room) : text;
		chars += kept.length;
		const last = hunk!.at(-1);
		if (last && last[0] === op) last[1] += kept;
		else hunk!.push([op, kept]);
		return kept.length === text.length;
	};
	for (let i = 0; i < parts.length && !cut; i++) {
		const [op, text] = parts[i]!;
		if (op !== 0) {
			if (!hunk) {
				hunk = [];
				hunks.push(hunk);
				const previous = parts[i - 1];
				if (previous?.[0] === 0) for (const token of tokens(previous[1]).slice(-context)) push(0, token);
			}
			if (!push(op, text)) cut = true;
			continue;
		}
		if (!hunk) continue;
		const words = tokens(text);
		const more = parts.slice(i + 1).some(([next]) => next !== 0);
		if (more && words.length <= 2 * context) {
			if (!push(0, text)) cut = true;
			continue;
		}
		for (const token of words.slice(0, context)) if (!push(0, token)) cut = true;
		hunk = undefined;
	}
	return { hunks, cut };
}
