import type { WordDiffHunks } from '../../store/model/types.js';
import { visible } from '../../base/util/visible.js';

/** How a word diff is marked: git's `--word-diff=plain` brackets, or its `=color` red and green. */
export type WordDiffStyle = 'plain' | 'color';

const RED = '\x1b[31m';
const GREEN = '\x1b[32m';
const RESET = '\x1b[m';

/** The line between two hunks: the unchanged text left out. */
export const HUNK_BREAK = '\n…\n';

/**
 * A word diff as text: `[-old-]{+new+}` (plain), or the removed words red and the added
 * green (color), the hunks joined by a line holding `…`. In colour a part that spans lines
 * is coloured line by line, as git does, so that a pager showing a line alone keeps it.
 * The page's text is made visible (`visible`): the colours are the only escape sequences.
 *
 * @example
 * wordDiffText([[[0, 'price '], [-1, '5'], [1, '6']]]) // 'price [-5-]{+6+}'
 */
export function wordDiffText(hunks: WordDiffHunks, style: WordDiffStyle = 'plain'): string {
	const mark = (op: 0 | 1 | -1, written: string): string => {
		const part = visible(written);
		if (op === 0) return part;
		if (style === 'plain') return op < 0 ? `[-${part}-]` : `{+${part}+}`;
		const colour = op < 0 ? RED : GREEN;
		return part
			.split('\n')
			.map((line) => (line === '' ? '' : `${colour}${line}${RESET}`))
			.join('\n');
	};
	return hunks.map((hunk) => hunk.map(([op, part]) => mark(op, part)).join('')).join(HUNK_BREAK);
}
