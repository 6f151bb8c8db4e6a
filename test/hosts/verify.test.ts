import { describe, expect, it } from 'vitest';
import { firstVerification, phaseOf, verificationDue } from '../../src/hosts/verify.js';
import type { UrlRecord } from '../../src/store/types.js';

const DAY = 86_400_000;
const PERIOD = 30 * DAY;
const record = (fields: Partial<UrlRecord>): UrlRecord => ({ v: 1, status: 200, lastChecked: 0, ...fields });

describe('verification', () => {
	it('spreads phases evenly over a list', () => {
		const buckets = new Array<number>(10).fill(0);
		for (let i = 0; i < 10_000; i++) buckets[Math.floor(phaseOf(`https://example.org/p/${i}`) * 10)]!++;
		for (const count of buckets) expect(count).toBeGreaterThan(800);
	});

	it('puts a URL\'s first verification within one period, the same for the same URL', () => {
		const now = 1_700_000_000_000;
		const at = firstVerification('https://example.org/a', now, PERIOD);
		expect(at).toBeGreaterThan(now);
		expect(at).toBeLessThanOrEqual(now + PERIOD);
		expect(firstVerification('https://example.org/a', now + DAY, PERIOD)).toBe(at > now + DAY ? at : at + PERIOD);
	});

	it('is due a whole period after the last confirmation, at the last run before it', () => {
		const confirmed = record({ verifiedAt: 0 });
		expect(verificationDue(confirmed, 'u', DAY, PERIOD, 28 * DAY)).toBe(false);
		expect(verificationDue(confirmed, 'u', DAY, PERIOD, 29 * DAY)).toBe(true);
		// Without a known run interval, at the first run once due.
		expect(verificationDue(confirmed, 'u', undefined, PERIOD, 29 * DAY)).toBe(false);
		expect(verificationDue(confirmed, 'u', undefined, PERIOD, 30 * DAY)).toBe(true);
		// A new URL's first moment comes first; off is off.
		expect(verificationDue(record({ verifiedAt: 0, verifyBy: 3 * DAY }), 'u', DAY, PERIOD, 2 * DAY)).toBe(true);
		expect(verificationDue(confirmed, 'u', DAY, 0, 300 * DAY)).toBe(false);
		// Runs rarer than the period: every run verifies.
		expect(verificationDue(record({ verifiedAt: 0 }), 'u', 90 * DAY, PERIOD, DAY)).toBe(true);
	});
});
