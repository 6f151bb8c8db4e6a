import { describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/net/hosts/book.js';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { RECORD_VERSION } from '../../src/store/model/types.js';
import { announced } from '../../src/watch/announced.js';

const T = Date.parse('2030-01-10T00:00:00Z');
const trust = { right: 9, wrong: 0, streak: 9, trusted: true, reason: '', skipped: 0, sampled: 0 };

describe('announced', () => {
	it('makes due now a URL whose trusted sitemap lastmod is after its last check, and nothing on an untrusted host', async () => {
		const store = new MemoryStore();
		const record = { v: RECORD_VERSION, status: 200, etag: '"a"', lastChecked: T - 86_400_000, rate: 0.1 };
		await store.batch([
			{ type: 'putHost', key: 'https://trusted.test', value: { ...newHostRecord(T), lastmod: trust } },
			{ type: 'putHost', key: 'https://other.test', value: newHostRecord(T) },
			...['https://trusted.test/new', 'https://trusted.test/old', 'https://other.test/new'].map((key) => ({ type: 'put' as const, key, value: record })),
		]);
		const queue = await store.dueQueue({ at0: T, wall0: Date.now(), scale: 0 });
		const later = T + 30 * 86_400_000;
		await queue.put(
			['https://trusted.test/new', 'https://trusted.test/old', 'https://other.test/new'].map((url) => ({
				url,
				origin: new URL(url).origin,
				due: later,
				rate: 0.1,
			})),
		);
		const lines = [
			{ line: 1, text: 'https://trusted.test/new', lastmod: '2030-01-09T12:00:00Z' },
			{ line: 2, text: 'https://trusted.test/old', lastmod: '2030-01-08' },
			{ line: 3, text: 'https://other.test/new', lastmod: '2030-01-09T12:00:00Z' },
		];
		const moved = await announced(
			{ source: 'sitemap', generation: 1, lines, complete: true, last: true },
			{ store, book: createHostBook(store, T, { auditRate: 0.05 }), queue, now: T },
		);
		expect(moved).toBe(1);
		const claim = await queue.claim({ max: 10, perHost: 10, leaseMs: 1000, rate: 1, burst: 10 });
		expect(claim.entries.map((entry) => entry.url)).toEqual(['https://trusted.test/new']);
	});
});
