import { describe, expect, it } from 'vitest';
import { diffTokens, keptAgain, keptText, wordDiff } from '../../../src/domain/content/word-diff.js';

describe('keptText', () => {
	it('keeps text within the cap as it is, and cuts longer text at a character boundary', () => {
		expect(keptText('hello', 5)).toEqual({ text: 'hello', cut: false });
		expect(keptText('héllo', 2)).toEqual({ text: 'h', cut: true });
		expect(keptText('héllo', 3)).toEqual({ text: 'hé', cut: true });
	});
});

describe('diffTokens', () => {
	it('keeps a number whole with its sign, separators and currency or percent', () => {
		expect(diffTokens('was $24.50, now 21,00 €')).toEqual(['was', ' ', '$24.50', ',', ' ', 'now', ' ', '21,00 €']);
		expect(diffTokens('1.234,56 € or 24,50&nbsp;€ or 24,50\u00A0€')).toEqual(['1.234,56 €', ' ', 'or', ' ', '24,50&nbsp;€', ' ', 'or', ' ', '24,50\u00A0€']);
		expect(diffTokens('down -3.5% to 1\u202F234 567')).toEqual(['down', ' ', '-3.5%', ' ', 'to', ' ', '1\u202F234', ' ', '567']);
	});

	it('leaves a hyphen between numbers, a full stop after one and words with digits as they are', () => {
		expect(diffTokens('on 2026-12-04.')).toEqual(['on', ' ', '2026', '-', '12', '-', '04', '.']);
		expect(diffTokens('the 3rd, x-3 and abc123')).toEqual(['the', ' ', '3rd', ',', ' ', 'x', '-', '3', ' ', 'and', ' ', 'abc123']);
	});
});

describe('keptAgain', () => {
	it('reads the masked text as the first kept text was read: visible text, or as it is', () => {
		expect(keptAgain({ text: 'Hats 5', cut: false, visible: true }, '<p>5</p>', 100)).toEqual({ text: '5', cut: false, visible: true });
		expect(keptAgain({ text: '<p>Hats</p><p>5</p>', cut: false }, '<p>5</p>', 4)).toEqual({ text: '<p>5', cut: true });
	});
});

describe('wordDiff', () => {
	it('shows a changed price as one number replaced by another', () => {
		expect(wordDiff('Price: $24.50 today', 'Price: $21.00 today')).toEqual({
			hunks: [
				[
					[0, 'Price: '],
					[-1, '$24.50'],
					[1, '$21.00'],
					[0, ' today'],
				],
			],
			cut: false,
		});
		expect(
			wordDiff('Prix : 1.234,56 €', 'Prix : 1.199,00 €')!
				.hunks.flat()
				.filter(([op]) => op !== 0),
		).toEqual([
			[-1, '1.234,56 €'],
			[1, '1.199,00 €'],
		]);
	});

	it('marks the words removed and added, with whitespace as parts of their own', () => {
		expect(wordDiff('price 5 EUR', 'price 6 EUR')).toEqual({
			hunks: [
				[
					[0, 'price '],
					[-1, '5'],
					[1, '6'],
					[0, ' EUR'],
				],
			],
			cut: false,
		});
	});

	it('keeps context either side of each change and leaves out the unchanged text between far changes', () => {
		const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
		const after = [...words];
		after[5] = 'FIRST';
		after[90] = 'LAST';
		const diff = wordDiff(words.join(' '), after.join(' '), { context: 4 })!;
		expect(diff.hunks).toHaveLength(2);
		const text = (hunk: Array<[number, string]>) => hunk.map(([op, part]) => (op === 1 ? `+${part}` : op === -1 ? `-${part}` : part)).join('');
		expect(text(diff.hunks[0]!)).toBe('w3 w4 -w5+FIRST w6 w7');
		expect(text(diff.hunks[1]!)).toBe('w88 w89 -w90+LAST w91 w92');
	});

	it('keeps changes close together in one hunk', () => {
		const diff = wordDiff('a b c d e', 'a X c Y e', { context: 2 })!;
		expect(diff.hunks).toHaveLength(1);
	});

	it('gives no hunk when the texts are the same, and cuts at maxChars', () => {
		expect(wordDiff('same text', 'same text')).toEqual({ hunks: [], cut: false });
		const diff = wordDiff('a', `a ${'long '.repeat(100)}`, { maxChars: 50 })!;
		expect(diff.cut).toBe(true);
		expect(diff.hunks.flat().reduce((sum, [, part]) => sum + part.length, 0)).toBe(50);
	});

	it('gives up on texts too different to diff cheaply', () => {
		const a = Array.from({ length: 300 }, (_, i) => `a${i}`).join(' ');
		const b = Array.from({ length: 300 }, (_, i) => `b${i}`).join(' ');
		expect(wordDiff(a, b, { maxEdits: 50 })).toBeUndefined();
	});
});
