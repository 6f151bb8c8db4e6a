import { describe, expect, it } from 'vitest';
import { applyDelta, reverseDelta } from '../../../src/domain/versions/delta.js';

describe('reverseDelta', () => {
	const pairs: Array<[string, string]> = [
		['Price 21 EUR today', 'Price 24 EUR today'],
		['was $24.50, now', 'was $21.00, now'],
		['héllo 😀 wörld', 'héllo 😃 wörld'],
		['a', ''],
		['', 'abc'],
		['same', 'same'],
		['x y z', 'p q r s'],
		['Opening hours: 9 to 5. Closed on Sunday.', 'Opening hours: 9 to 6. Closed on Sunday and Monday.'],
	];

	it('makes the older text back from the newer, exactly', () => {
		for (const [older, newer] of pairs) expect(applyDelta(newer, reverseDelta(newer, older).delta)).toBe(older);
	});

	it('writes out only what the older has and the newer lacks, with the words added and removed', () => {
		expect(reverseDelta('Price 24 EUR today', 'Price 21 EUR today')).toEqual({ delta: [[0, 7], '1', [8, 10]], added: 1, removed: 1 });
		const long = 'word '.repeat(2000);
		const { delta } = reverseDelta(`${long}new sentence here. ${long}`, `${long}${long}`);
		expect(JSON.stringify(delta).length).toBeLessThan(40);
	});

	it('finds the parts two texts share however much moved or changed between them', () => {
		const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} tells of the council's plans for the ${i}th street, at length. `);
		const older = paragraphs.join('');
		// Every other paragraph edited, and the halves swapped.
		const edited = paragraphs.map((p, i) => (i % 2 === 0 ? p.replace('plans', 'new plans') : p));
		const newer = [...edited.slice(20), ...edited.slice(0, 20)].join('');
		const { delta, added, removed } = reverseDelta(newer, older);
		expect(applyDelta(newer, delta)).toBe(older);
		expect(delta.filter((part) => typeof part === 'string').join('').length).toBeLessThan(older.length / 4);
		expect({ added, removed }).toEqual({ added: 20, removed: 0 });
	});

	it('is exact for unrelated texts and across surrogate pairs', () => {
		const a = Array.from({ length: 6000 }, (_, i) => `a${i}`).join(' ');
		const b = Array.from({ length: 6000 }, (_, i) => `b${i}`).join(' ');
		expect(applyDelta(b, reverseDelta(b, a).delta)).toBe(a);
		const emoji = '😀😃😄'.repeat(20);
		expect(applyDelta(`x${emoji}y`, reverseDelta(`x${emoji}y`, `${emoji}😀z`).delta)).toBe(`${emoji}😀z`);
	});
});
