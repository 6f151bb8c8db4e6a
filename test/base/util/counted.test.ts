import { describe, expect, it } from 'vitest';
import { counted } from '../../../src/base/util/counted.js';

describe('counted', () => {
	it('is singular for 1 only, and takes an irregular plural', () => {
		expect([0, 1, 2].map((count) => counted(count, 'URL'))).toEqual(['0 URLs', '1 URL', '2 URLs']);
		expect(counted(1, 'second fetch', 'second fetches')).toBe('1 second fetch');
		expect(counted(3, 'second fetch', 'second fetches')).toBe('3 second fetches');
	});
});
