import { describe, expect, it } from 'vitest';
import { packVersions, trimVersions, unpackVersions } from '../../../src/store/model/version-log.js';
import type { StoredVersion } from '../../../src/store/model/types.js';

describe('version logs', () => {
	it('give back every field of every version, whichever are set', () => {
		const versions: StoredVersion[] = [
			{
				n: 12,
				firstSeen: 1_767_744_000_123,
				reason: 'price',
				added: 1,
				removed: 1,
				etag: 'W/"x y"',
				product: { price: 21.5, currency: 'EUR', availability: 'InStock' } as StoredVersion['product'],
				bytes: 5120,
				cut: true,
			},
			{
				n: 11,
				firstSeen: 1_767_657_600_000,
				lastConfirmed: 1_767_740_000_000,
				reason: 'new-body',
				added: 0,
				removed: 3,
				lastModified: 'Mon, 05 Jan 2026 00:00:00 GMT',
				bytes: 5200,
				delta: [[0, 40], 'old words ', [40, 5000]],
			},
			{ n: 10, firstSeen: 1_767_600_000_000, lastConfirmed: 1_767_600_000_000, reason: 'new', added: 0, removed: 0, bytes: 5120, same: 12 },
		];
		const log = packVersions(versions, 'f'.repeat(32));
		expect(unpackVersions(log)).toEqual(versions);
		expect(log).toMatchObject({ latest: 'f'.repeat(32), at: versions[0]!.firstSeen, oldest: versions[2]!.firstSeen, count: 3 });
		expect(trimVersions(versions, 2).map((version) => version.n)).toEqual([12, 11]);
		expect(trimVersions(versions, 0).map((version) => version.n)).toEqual([12]);
	});
});
