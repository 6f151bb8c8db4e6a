import { describe, expect, it } from 'vitest';
import { jsonDifferences, maskJson } from '../../../src/domain/content/noise-json.js';

describe('structural noise in JSON', () => {
	it('learns the pointers that differ and masks them, keys sorted', () => {
		const places = jsonDifferences('{"price":5,"requestId":"a7f","ads":["x","y"]}', '{"price":5,"requestId":"c01","ads":["z"]}');
		expect(places.sort()).toEqual(['/ads', '/requestId']);
		expect(maskJson('{"requestId":"q","price":5,"ads":[]}', places)).toBe('{"price":5}');
		expect(maskJson('{"requestId":"q","price":6}', places)).not.toBe(maskJson('{"price":5}', places));
	});

	it('never learns a document itself, and reads counted text of several pointers line by line', () => {
		expect(jsonDifferences('5', '6')).toEqual([]);
		expect(jsonDifferences('{"a":1}\n{"t":1}', '{"a":1}\n{"t":2}')).toEqual(['#1/t']);
		expect(maskJson('{"a":1}\n{"t":9,"u":1}', ['#1/t'])).toBe('{"a":1}\n{"u":1}');
	});
});
