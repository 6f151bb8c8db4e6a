import { describe, expect, it } from 'vitest';
import { firstVerification, phaseOf, verificationBound, verificationDue, verificationOverdue } from '../../../src/net/hosts/verify.js';
import type { UrlRecord } from '../../../src/store/model/types.js';

const DAY = 86_400_000;
const PERIOD = 30 * DAY;
const record = (fields: Partial<UrlRecord>): UrlRecord => ({ v: 1, status: 200, lastChecked: 0, ...fields });

describe('verification', () => {
	it('spreads phases evenly over a list', () => {
		const buckets = new Array<number>(10).fill(0);
		for (let i = 0; i < 10_000; i++) buckets[Math.floor(phaseOf(`https://example.org/p/${i}`) * 10)]!++;
		for (const count of buckets) expect(count).toBeGreaterThan(800);
	});

	it("puts a URL's first verification within one period, the same for the same URL", () => {
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
		// A new URL's first moment comes first, squeezed into the period less one run; off is off.
		expect(verificationDue(record({ verifiedAt: 0, verifyBy: 3 * DAY }), 'u', DAY, PERIOD, 2 * DAY)).toBe(false);
		expect(verificationDue(record({ verifiedAt: 0, verifyBy: 3 * DAY }), 'u', DAY, PERIOD, 3 * DAY)).toBe(true);
		expect(verificationDue(confirmed, 'u', DAY, 0, 300 * DAY)).toBe(false);
		// Runs rarer than the period: every run verifies.
		expect(verificationDue(record({ verifiedAt: 0 }), 'u', 90 * DAY, PERIOD, DAY)).toBe(true);
	});

	it('gives every daily run the same share of a list first seen in one run, cycle after cycle', () => {
		// 2,000 URLs first downloaded on day 0, then a run a day with a 10-day period.
		const period = 10 * DAY;
		const records = Array.from({ length: 2000 }, (_, i) => {
			const url = `https://example.org/p/${i}`;
			return { url, record: record({ verifiedAt: 0, verifyBy: firstVerification(url, 0, period) }) };
		});
		const perDay: number[] = [];
		for (let day = 1; day <= 40; day++) {
			let due = 0;
			for (const entry of records) {
				if (!verificationDue(entry.record, entry.url, DAY, period, day * DAY)) continue;
				due++;
				entry.record = record({ verifiedAt: day * DAY });
			}
			perDay.push(due);
		}
		// Nine runs share each cycle (the tenth day is the bound): about 222 each, none doubled.
		expect(Math.max(...perDay)).toBeLessThan(300);
		expect(Math.min(...perDay)).toBeGreaterThan(150);
	});
});

describe('verificationBound, verificationOverdue', () => {
	const D = 86_400_000;
	const P = 30 * D;
	it("is a new URL's first moment while it has one, then a period after the last confirmation", () => {
		expect(verificationBound({ verifiedAt: 0, verifyBy: 12 * D }, P)).toBe(12 * D);
		expect(verificationBound({ verifiedAt: 5 * D }, P)).toBe(35 * D);
		expect(verificationBound({}, P)).toBeUndefined();
		expect(verificationBound({ verifiedAt: 5 * D }, 0)).toBeUndefined();
	});

	it('is overdue a whole period past the bound, never with verification off', () => {
		expect(verificationOverdue({ verifiedAt: 0 }, P, 59 * D)).toBe(false);
		expect(verificationOverdue({ verifiedAt: 0 }, P, 60 * D)).toBe(true);
		expect(verificationOverdue({ verifiedAt: 0, verifyBy: 10 * D }, P, 40 * D)).toBe(true);
		expect(verificationOverdue({ verifiedAt: 0 }, 0, 1000 * D)).toBe(false);
	});
});
