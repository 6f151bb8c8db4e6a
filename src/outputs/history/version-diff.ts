import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { diffTokens, wordDiff } from '../../domain/content/word-diff.js';
import type { WordDiffHunks } from '../../store/model/types.js';

/** Two texts compared word by word: the hunks, and the words (letters or digits) added and removed. */
export interface TextComparison {
	same: boolean;
	/** Undefined when the texts are too different to diff word by word (see wordDiff's maxEdits). */
	hunks?: WordDiffHunks;
	added: number;
	removed: number;
}

/** Edits past which two versions count as too different to diff word by word: a whole page replaced, not edited. */
const MAX_EDITS = 100_000;

const words = (text: string): number => diffTokens(text).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;

/**
 * Compares two versions' texts word by word, with the report's word diff (wordDiff), not
 * cut: a terminal shows the whole of it. `same` is byte equality, as diff(1) has it.
 *
 * @example
 * compareTexts('price 5 EUR', 'price 6 EUR')
 * // { same: false, hunks: [[[0, 'price'], [0, ' '], [-1, '5'], [1, '6'], [0, ' '], [0, 'EUR']]], added: 1, removed: 1 }
 */
export function compareTexts(before: string, after: string): TextComparison {
	if (before === after) return { same: true, hunks: [], added: 0, removed: 0 };
	const diff = wordDiff(before, after, { maxChars: Number.POSITIVE_INFINITY, maxEdits: MAX_EDITS });
	if (diff === undefined) return { same: false, added: words(after), removed: words(before) };
	let added = 0;
	let removed = 0;
	for (const hunk of diff.hunks) {
		for (const [op, part] of hunk) {
			if (op > 0) added += words(part);
			else if (op < 0) removed += words(part);
		}
	}
	return { same: false, hunks: diff.hunks, added, removed };
}

/** A side of a unified diff: its label (where diff(1) puts a file name) and time. */
export interface PatchSide {
	label: string;
	time: number;
}

// diff -u's time stamp: `2026-12-01 10:00:00.000 +0000`.
const stamp = (ms: number): string => `${new Date(ms).toISOString().slice(0, 23).replace('T', ' ')} +0000`;

/**
 * The unified diff (3 lines of context) of two texts, as `diff -u` writes it and
 * `patch` reads it: `---`/`+++` lines with a label and a time, `@@` hunks, and "\ No
 * newline at end of file" where a text does not end with one. Empty when the texts are
 * the same. jsdiff's (`diff`, already what the word diff runs on) line diff and patch writer.
 *
 * @example
 * unifiedPatch('a\nb\n', 'a\nc\n', { label: 'v1', time: 0 }, { label: 'v2', time: 0 })
 * // '--- v1\t1970-01-01 00:00:00.000 +0000\n+++ v2\t…\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n'
 */
export function unifiedPatch(before: string, after: string, from: PatchSide, to: PatchSide): string {
	if (before === after) return '';
	return createTwoFilesPatch(from.label, to.label, before, after, stamp(from.time), stamp(to.time), { context: 3, headerOptions: FILE_HEADERS_ONLY });
}
