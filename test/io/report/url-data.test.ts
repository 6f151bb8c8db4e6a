import { describe, expect, it } from 'vitest';
import { pagePairs } from '../../../src/io/report/url-data.js';

describe('the pairs a URL page holds', () => {
	it('holds each change and the oldest against the latest, not every pair', () => {
		expect(pagePairs([5, 4, 3, 2])).toEqual([
			[4, 5],
			[3, 4],
			[2, 3],
			[2, 5],
		]);
		expect(pagePairs([2, 1])).toEqual([[1, 2]]);
	});

	it('adds the pair asked for, older first, when both versions are kept', () => {
		expect(pagePairs([4, 3, 2, 1], [4, 2])).toEqual([
			[3, 4],
			[2, 3],
			[1, 2],
			[1, 4],
			[2, 4],
		]);
		expect(pagePairs([4, 3, 2, 1], [2, 4])).toContainEqual([2, 4]);
		expect(pagePairs([3, 2], [1, 3])).toEqual([[2, 3]]);
		expect(pagePairs([3, 2], [2, 2])).toEqual([[2, 3]]);
	});

	it('holds none for one version or none', () => {
		expect(pagePairs([7])).toEqual([]);
		expect(pagePairs([])).toEqual([]);
	});
});
