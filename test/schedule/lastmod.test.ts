import { describe, expect, it } from 'vitest';
import { lastmodSays, newLastmodTrust, scoreLastmod, TRUST_AFTER } from '../../src/schedule/lastmod.js';

const checked = Date.parse('2030-01-10T12:00:00Z');

describe('lastmodSays', () => {
	it('says changed when dated after the last check, a bare date counting as its whole day', () => {
		expect(lastmodSays('2030-01-10T13:00:00Z', checked)).toBe('changed');
		expect(lastmodSays('2030-01-10T11:00:00Z', checked)).toBe('unchanged');
		expect(lastmodSays('2030-01-10', checked)).toBe('changed');
		expect(lastmodSays('2030-01-09', checked)).toBe('unchanged');
		expect(lastmodSays('soon', checked)).toBeUndefined();
		expect(lastmodSays(undefined, checked)).toBeUndefined();
	});
});

describe('scoreLastmod', () => {
	it('trusts a host after TRUST_AFTER announced changes in a row, and not before', () => {
		let trust = newLastmodTrust();
		for (let i = 1; i < TRUST_AFTER; i++) {
			trust = scoreLastmod(trust, 'changed', true);
			expect(trust.trusted).toBe(false);
		}
		trust = scoreLastmod(trust, 'changed', true);
		expect(trust).toMatchObject({ trusted: true, announced: TRUST_AFTER, missed: 0, streak: TRUST_AFTER });
		expect(trust.reason).toContain(`last ${TRUST_AFTER} changes`);
	});

	it('loses the trust at the first change lastmod missed, and starts the streak again', () => {
		let trust = newLastmodTrust();
		for (let i = 0; i < TRUST_AFTER + 2; i++) trust = scoreLastmod(trust, 'changed', true);
		trust = scoreLastmod(trust, 'unchanged', true);
		expect(trust).toMatchObject({ trusted: false, missed: 1, streak: 0 });
		expect(trust.reason).toContain('missed a change');
		expect(scoreLastmod(trust, 'changed', true).trusted).toBe(false);
	});

	it('learns nothing from an unchanged page, whatever lastmod said', () => {
		const trust = newLastmodTrust();
		expect(scoreLastmod(trust, 'changed', false)).toEqual(trust);
		expect(scoreLastmod(trust, 'unchanged', false)).toEqual(trust);
	});
});
