import { diffTokens } from '../content/word-diff.js';

/** How to make an older text from a newer one: `[from, length]` copies that slice of the newer text (UTF-16 offsets); a string is inserted. */
export type ReverseDelta = Array<string | [number, number]>;

/** The length of the newer text's blocks looked for in the older: shorter copies cost more to write than the text they copy. */
const BLOCK = 12;

/**
 * The reverse delta of two versions of a page's text (as RCS and git packs keep them:
 * the newest whole, each older one as the edits that make it from the one after), and
 * the words the newer added and removed. The common head and tail are copies outright;
 * between them, as git's delta does, the newer text is indexed by blocks and the older
 * is read for them: each block found is stretched both ways into a copy, the rest is
 * written out. One pass, whatever the edits: a page rewritten whole costs no more than
 * one with a word changed (a word diff's time grows with the edits; bench/VERSIONS.md).
 * Words added and removed are counted as bags of words (a moved paragraph is neither).
 *
 * @example
 * reverseDelta('Price 24 EUR today', 'Price 21 EUR today')
 * // { delta: [[0, 7], '1', [8, 10]], added: 1, removed: 1 }
 */
export function reverseDelta(newer: string, older: string): { delta: ReverseDelta; added: number; removed: number } {
	let head = 0;
	const shortest = Math.min(newer.length, older.length);
	while (head < shortest && newer.charCodeAt(head) === older.charCodeAt(head)) head++;
	let tail = 0;
	while (tail < shortest - head && newer.charCodeAt(newer.length - 1 - tail) === older.charCodeAt(older.length - 1 - tail)) tail++;
	const delta: ReverseDelta = [];
	const copy = (from: number, length: number): void => {
		if (length === 0) return;
		const last = delta.at(-1);
		if (Array.isArray(last) && last[0] + last[1] === from) last[1] += length;
		else delta.push([from, length]);
	};
	const insert = (text: string): void => {
		if (text !== '') delta.push(text);
	};
	copy(0, head);
	const end = { newer: newer.length - tail, older: older.length - tail };
	const blocks = new Map<string, number>();
	for (let at = head; at + BLOCK <= end.newer; at += BLOCK) {
		const block = newer.slice(at, at + BLOCK);
		if (!blocks.has(block)) blocks.set(block, at);
	}
	let written = head;
	for (let at = head; at + BLOCK <= end.older; ) {
		let from = blocks.get(older.slice(at, at + BLOCK));
		if (from === undefined) {
			at++;
			continue;
		}
		let start = at;
		while (start > written && from > head && older.charCodeAt(start - 1) === newer.charCodeAt(from - 1)) {
			start--;
			from--;
		}
		let stop = at + BLOCK;
		let to = from + (stop - start);
		while (stop < end.older && to < end.newer && older.charCodeAt(stop) === newer.charCodeAt(to)) {
			stop++;
			to++;
		}
		insert(older.slice(written, start));
		copy(from, stop - start);
		written = at = stop;
	}
	insert(older.slice(written, end.older));
	copy(end.newer, tail);
	return { delta, ...wordsMoved(newer, older) };
}

const isWord = (token: string): boolean => /[\p{L}\p{N}]/u.test(token);

/** Words of the newer text beyond the older's (added), and of the older beyond the newer's (removed), each word counted as often as it occurs. */
function wordsMoved(newer: string, older: string): { added: number; removed: number } {
	const count = new Map<string, number>();
	for (const word of diffTokens(newer)) if (isWord(word)) count.set(word, (count.get(word) ?? 0) + 1);
	for (const word of diffTokens(older)) if (isWord(word)) count.set(word, (count.get(word) ?? 0) - 1);
	let added = 0;
	let removed = 0;
	for (const n of count.values()) {
		if (n > 0) added += n;
		else removed -= n;
	}
	return { added, removed };
}

/**
 * The older text of a reverse delta, made from the newer.
 *
 * @example
 * applyDelta('Price 24 EUR today', [[0, 7], '1', [8, 10]]) // 'Price 21 EUR today'
 */
export function applyDelta(newer: string, delta: ReverseDelta): string {
	return delta.map((part) => (typeof part === 'string' ? part : newer.slice(part[0], part[0] + part[1]))).join('');
}
