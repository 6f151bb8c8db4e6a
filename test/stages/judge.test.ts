import { describe, expect, it } from 'vitest';
import { judge } from '../../src/stages/judge.js';
import { RECORD_VERSION, type UrlRecord } from '../../src/store/model/types.js';
import type { ProbeResult } from '../../src/domain/task/types.js';

const url = 'https://example.org/a';
const now = 1_700_000_000_000;
const stored: UrlRecord = {
	v: RECORD_VERSION,
	status: 200,
	etag: 'W/"1"',
	lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT',
	hash: 'h1',
	size: 100,
	encoding: 'gzip',
	lastChecked: 1,
};
const result = (fields: Partial<ProbeResult>): ProbeResult => ({ status: 200, finalUrl: url, permanent: false, bytes: 10, ms: 5, ...fields });

describe('judge', () => {
	it('a first 200 is new; the record holds what came, and the verdict fields come in NDJSON order', () => {
		const { verdict, next } = judge(url, null, result({ etag: '"e"', lastModified: 'L', hash: 'h' }), 'gzip', now);
		expect(Object.keys(verdict)).toEqual(['url', 'changed', 'reason', 'status', 'etag', 'lastModified', 'hash', 'verifiedAt', 'bytes', 'ms']);
		expect(verdict).toMatchObject({ changed: true, reason: 'new', etag: '"e"', lastModified: 'L', hash: 'h', verifiedAt: new Date(now).toISOString() });
		expect(next).toEqual({
			v: RECORD_VERSION,
			status: 200,
			etag: '"e"',
			lastModified: 'L',
			hash: 'h',
			size: 10,
			encoding: 'gzip',
			lastChecked: now,
			verifiedAt: now,
		});
	});

	it('a 304 keeps the stored validators unless new ones came, refreshes lastChecked, and says weak after its validators', () => {
		const { verdict, next } = judge(url, stored, result({ status: 304, bytes: 0, lastModified: 'Tue, 02 Jan 2024 00:00:00 GMT' }), 'gzip', now, true);
		expect(next).toEqual({ ...stored, lastModified: 'Tue, 02 Jan 2024 00:00:00 GMT', lastChecked: now });
		expect(Object.keys(verdict)).toEqual(['url', 'changed', 'reason', 'status', 'etag', 'weak', 'lastModified', 'hash', 'bytes', 'ms']);
		expect(verdict).toMatchObject({ changed: false, reason: '304', etag: 'W/"1"', weak: true, hash: 'h1' });
	});

	it('a 304 records where this request ended, dropping a redirect the URL no longer has', () => {
		const moved = { ...stored, finalUrl: 'https://example.org/b', permanent: true };
		expect(judge(url, moved, result({ status: 304 }), 'gzip', now).next).not.toHaveProperty('finalUrl');
		expect(judge(url, moved, result({ status: 304 }), 'gzip', now).next).not.toHaveProperty('permanent');
		const redirected = judge(url, stored, result({ status: 304, finalUrl: 'https://example.org/c', permanent: true }), 'gzip', now);
		expect(redirected.next).toMatchObject({ finalUrl: 'https://example.org/c', permanent: true });
		expect(redirected.verdict.finalUrl).toBe('https://example.org/c');
	});

	it("a body read whole confirms the URL now; a new URL's first verification falls within the period, at its own phase", () => {
		const period = 30 * 86_400_000;
		const first = judge(url, null, result({ hash: 'h' }), 'gzip', now, false, period).next!;
		expect(first.verifiedAt).toBe(now);
		expect(first.verifyBy).toBeGreaterThan(now);
		expect(first.verifyBy).toBeLessThanOrEqual(now + period);
		// Confirmed again: a whole period from now, no first-period phase any more.
		const again = judge(url, { ...first, verifiedAt: 1 }, result({ hash: 'h' }), 'gzip', now + 5, false, period).next!;
		expect(again).toMatchObject({ verifiedAt: now + 5 });
		expect(again).not.toHaveProperty('verifyBy');
	});

	it('a 304 keeps verifiedAt; an audit that finds the same body confirms it', () => {
		const verified = { ...stored, verifiedAt: 5, verifyBy: 9 };
		expect(judge(url, verified, result({ status: 304 }), 'gzip', now).next).toMatchObject({ verifiedAt: 5, verifyBy: 9 });
		const audited = judge(url, verified, result({ status: 304, audit: result({ hash: 'h1' }) }), 'gzip', now);
		expect(audited.verdict).toMatchObject({ reason: '304', verifiedAt: new Date(now).toISOString() });
		expect(audited.next).toMatchObject({ verifiedAt: now });
		expect(audited.next).not.toHaveProperty('verifyBy');
		// The audit found a change: reported as an audit catch, and confirmed by that body.
		const caught = judge(url, verified, result({ status: 304, audit: result({ hash: 'h2' }) }), 'gzip', now);
		expect(caught.verdict).toMatchObject({ changed: true, reason: 'audit' });
		expect(caught.next).toMatchObject({ hash: 'h2', verifiedAt: now });
	});

	it('a new-body whose visible text did not move says where its bytes did, and the record keeps the new parts', () => {
		const before = { ...stored, parts: '100 text0000 scripts0 styles00 attrs000 comments markup00' };
		const parts = '104 text0000 scripts1 styles00 attrs000 comments markup00';
		const { verdict, next } = judge(url, before, result({ hash: 'h2', parts }), 'gzip', now);
		expect(verdict).toMatchObject({ changed: true, reason: 'new-body', note: 'the text is the same; the bytes changed: 100 → 104 bytes, in the scripts' });
		expect(next!.parts).toBe(parts);
		// The text moved: a diff shows it, and there is nothing more to say.
		expect(
			judge(url, before, result({ hash: 'h2', parts: '104 text0001 scripts1 styles00 attrs000 comments markup00' }), 'gzip', now).verdict,
		).not.toHaveProperty('note');
	});

	it('a 200 with the stored hash is same-hash, another is new-body', () => {
		expect(judge(url, stored, result({ hash: 'h1' }), 'gzip', now).verdict).toMatchObject({ changed: false, reason: 'same-hash' });
		expect(judge(url, stored, result({ hash: 'h2' }), 'gzip', now).verdict).toMatchObject({ changed: true, reason: 'new-body' });
	});

	it('404 after a live page is gone and changed; gone again is not', () => {
		const first = judge(url, stored, result({ status: 404 }), 'gzip', now);
		expect(first.verdict).toMatchObject({ changed: true, reason: 'gone', status: 404 });
		expect(first.next).toEqual({ v: RECORD_VERSION, status: 404, lastChecked: now });
		expect(judge(url, first.next!, result({ status: 410 }), 'gzip', now).verdict).toMatchObject({ changed: false, reason: 'gone' });
	});

	it('an error leaves the store alone; a 304 to a request without validators is an error', () => {
		const failed = judge(url, stored, result({ status: 0, error: { code: 'ETIMEDOUT', message: 'timeout' } }), 'gzip', now);
		expect(failed.next).toBeUndefined();
		expect(failed.verdict).toEqual({ url, changed: false, reason: 'error', bytes: 10, ms: 5, error: { code: 'ETIMEDOUT', message: 'timeout' } });
		expect(judge(url, null, result({ status: 304 }), 'gzip', now).verdict.error?.code).toBe('UNEXPECTED_304');
	});

	it('an audit that finds a new body overrides the 304', () => {
		const { verdict, next } = judge(url, stored, result({ status: 304, audit: result({ hash: 'h2' }) }), 'gzip', now);
		expect(verdict).toMatchObject({ changed: true, reason: 'audit', hash: 'h2' });
		expect(next?.hash).toBe('h2');
		expect(judge(url, stored, result({ status: 304, audit: result({ hash: 'h1' }) }), 'gzip', now).verdict.reason).toBe('304');
	});

	it('a headers-only 200 is a candidate, with no record to commit', () => {
		const { verdict, next } = judge(url, stored, result({ headersOnly: true, etag: '"2"' }), 'gzip', now);
		expect(verdict).toMatchObject({ changed: true, reason: 'candidate', etag: '"2"' });
		expect(verdict).not.toHaveProperty('hash');
		expect(next).toBeUndefined();
	});
});

describe('judge on product pages', () => {
	const offer = { price: 24.5, currency: 'EUR', availability: 'InStock' as const };
	const shop: UrlRecord = { ...stored, content: { hash: 'c1', rules: 'r1', matched: true, product: offer } };
	const counted = (content: ProbeResult['content']) => result({ hash: 'h2', content });

	it('says what moved, with the offer before; the record keeps the offer, not where it was read', () => {
		const { verdict, next } = judge(
			url,
			shop,
			counted({ hash: 'c2', rules: 'r1', matched: true, product: { ...offer, price: 21 }, offer: { ...offer, price: 21, from: 'json-ld', prices: 2 } }),
			'gzip',
			now,
		);
		expect(verdict).toMatchObject({
			changed: true,
			reason: 'price',
			product: { price: 21, currency: 'EUR', availability: 'InStock', prices: 2 },
			previous: offer,
		});
		expect(next!.content).toEqual({ hash: 'c2', rules: 'r1', matched: true, product: { ...offer, price: 21 } });
		const restock = judge(
			url,
			{ ...shop, content: { ...shop.content!, product: { ...offer, availability: 'OutOfStock' } } },
			counted({ hash: 'c3', rules: 'r1', matched: true, product: offer, offer: { ...offer, from: 'microdata' } }),
			'gzip',
			now,
		);
		expect(restock.verdict).toMatchObject({ reason: 'availability', previous: { availability: 'OutOfStock' } });
	});

	it('a 304 carries the offer counted last; an offer gone from the page is selector-gone with the offer before', () => {
		expect(judge(url, shop, result({ status: 304, bytes: 0 }), 'gzip', now).verdict).toMatchObject({ reason: '304', product: offer });
		const gone = judge(url, shop, counted({ hash: 'c0', rules: 'r1' }), 'gzip', now).verdict;
		expect(gone).toMatchObject({ changed: true, reason: 'selector-gone', previous: offer });
		expect(gone.product).toBeUndefined();
	});

	it('a page with no offer says so: at first sight, checked again (same-content), on a 304, and when it loses the offer it had (selector-gone)', () => {
		const first = judge(url, null, counted({ hash: 'c0', rules: 'r1', noOffer: true }), 'gzip', now);
		expect(first.verdict).toMatchObject({ changed: true, reason: 'new', product: null, problem: 'no-offer' });
		expect(first.next!.content).toEqual({ hash: 'c0', rules: 'r1', noOffer: true });
		const again = judge(url, { ...stored, hash: 'h1', content: first.next!.content! }, counted({ hash: 'c0', rules: 'r1', noOffer: true }), 'gzip', now);
		expect(again.verdict).toMatchObject({ changed: false, reason: 'same-content', product: null, problem: 'no-offer' });
		expect(judge(url, { ...stored, content: first.next!.content! }, result({ status: 304, bytes: 0 }), 'gzip', now).verdict).toMatchObject({
			reason: '304',
			product: null,
			problem: 'no-offer',
		});
		const lost = judge(url, shop, counted({ hash: 'c0', rules: 'r1', noOffer: true }), 'gzip', now).verdict;
		expect(lost).toMatchObject({ changed: true, reason: 'selector-gone', product: null, problem: 'no-offer', previous: offer });
	});
});
