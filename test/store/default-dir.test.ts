import { describe, expect, it } from 'vitest';
import { defaultStoreDir } from '../../src/store/default-dir.js';

describe('defaultStoreDir', () => {
	it('is $REVISIT_STORE, else ./.revisit', () => {
		expect(defaultStoreDir({ REVISIT_STORE: '/var/lib/revisit' })).toBe('/var/lib/revisit');
		expect(defaultStoreDir({})).toBe('.revisit');
	});
});
