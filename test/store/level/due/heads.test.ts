import { describe, expect, it } from 'vitest';
import { OriginHeads, type HeadItem } from '../../../../src/store/level/due/heads.js';

const item = (due: number, url = `u${due}`): HeadItem => ({ key: `o\x00${String(due).padStart(15, '0')}\x00${url}`, due, url, bin: 0 });
const dues = (heads: OriginHeads): number[] | undefined => heads.get('o')?.items.map((entry) => entry.due);

describe('OriginHeads', () => {
	it("keeps an origin's first keys in order as keys are written and deleted", () => {
		const heads = new OriginHeads();
		heads.set('o', [item(10), item(30)], true);
		heads.put('o', item(20));
		heads.put('o', item(5));
		heads.del('o', item(30).key);
		expect(dues(heads)).toEqual([5, 10, 20]);
		expect(heads.get('o')?.last).toBeUndefined();
	});

	it('ignores keys past what an incomplete read covered: they are read again when needed', () => {
		const heads = new OriginHeads();
		heads.set('o', [item(10), item(20)], false);
		heads.put('o', item(25));
		heads.put('o', item(15));
		expect(dues(heads)).toEqual([10, 15, 20]);
		expect(heads.get('o')?.last).toBe(item(20).key);
	});

	it('holds at most maxItems keys per origin and maxOrigins origins', () => {
		const heads = new OriginHeads(2, 3);
		heads.set('o', [item(1), item(2), item(3)], true);
		heads.put('o', item(4));
		expect(dues(heads)).toEqual([1, 2, 3]);
		// Trimmed, the head covers up to its last key only: a later key is not taken in.
		expect(heads.get('o')?.last).toBe(item(3).key);
		heads.set('p', [], true);
		heads.set('q', [], true);
		expect(heads.get('o')).toBeUndefined();
		expect(heads.get('q')).toBeDefined();
	});

	it('keeps no head from an incomplete read that found nothing', () => {
		const heads = new OriginHeads();
		heads.set('o', [item(1)], true);
		heads.set('o', [], false);
		expect(heads.get('o')).toBeUndefined();
	});
});
