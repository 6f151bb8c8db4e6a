import { describe, expect, it } from 'vitest';
import { formatVersionTable, versionRow } from '../../../src/outputs/history/version-table.js';
import type { PageVersion } from '../../../src/domain/versions/index.js';

const at = (iso: string) => Date.parse(iso);
// A product page's versions, newest first: a price cut, then a restock.
const versions: PageVersion[] = [
	{
		n: 3,
		firstSeen: at('2026-12-03T08:00:00Z'),
		lastConfirmed: at('2026-12-04T08:00:00Z'),
		reason: 'availability',
		added: 1,
		removed: 1,
		etag: '"c3"',
		product: { price: 21, currency: 'EUR', availability: 'InStock' },
		bytes: 2100,
	},
	{
		n: 2,
		firstSeen: at('2026-12-02T08:00:00Z'),
		lastConfirmed: at('2026-12-02T20:00:00Z'),
		reason: 'price',
		added: 1,
		removed: 1,
		lastModified: 'Wed, 02 Dec 2026 07:59:00 GMT',
		product: { price: 21, currency: 'EUR', availability: 'OutOfStock' },
		bytes: 2100,
		cut: true,
	},
	{
		n: 1,
		firstSeen: at('2026-12-01T08:00:00Z'),
		lastConfirmed: at('2026-12-01T20:00:00Z'),
		reason: 'new',
		added: 312,
		removed: 0,
		product: { price: 24.5, currency: 'EUR', availability: 'OutOfStock' },
		bytes: 2090,
	},
];

describe('a page version table', () => {
	it('lists the versions newest first with the offer as it moved and the validators', () => {
		expect(formatVersionTable(versions).split('\n')).toEqual([
			'VERSION   FIRST SEEN            LAST CONFIRMED        REASON        WORDS  TEXT        OFFER                                             VALIDATORS',
			'3 latest  2026-12-03 08:00:00Z  2026-12-04 08:00:00Z  availability  +1 −1  2.1 KB      price 21 EUR, availability OutOfStock → InStock   etag "c3"',
			'2         2026-12-02 08:00:00Z  2026-12-02 20:00:00Z  price         +1 −1  2.1 KB cut  price 24.5 EUR → 21 EUR, ' +
				'availability OutOfStock  last-modified Wed, 02 Dec 2026 07:59:00 GMT',
			'1         2026-12-01 08:00:00Z  2026-12-01 20:00:00Z  new           -      2.1 KB      price 24.5 EUR, availability OutOfStock           -',
			'',
		]);
	});

	it('shows the newest N with the offer still read against the version before, and no OFFER column without one', () => {
		const two = formatVersionTable(versions, 2).split('\n');
		expect(two).toHaveLength(4);
		expect(two[2]).toContain('price 24.5 EUR → 21 EUR');
		expect(formatVersionTable(versions.map(({ product: _, ...rest }) => rest)).split('\n')[0]).not.toContain('OFFER');
	});

	it('marks a change --when held back, and one that moved only bytes', () => {
		const note = 'the text is the same; the bytes changed: 2,100 → 2,104 bytes, in the scripts';
		const marked: PageVersion[] = [{ ...versions[0]!, reason: 'new-body', added: 0, removed: 0, note }, { ...versions[1]!, held: true }, versions[2]!];
		const rows = formatVersionTable(marked).split('\n');
		expect(rows[1]).toMatch(/^3 latest .* new-body +same text +2\.1 KB /);
		expect(rows[2]).toMatch(/^2 .* price, held +\+1 −1 /);
		expect(versionRow('https://shop.example/k', marked[0]!, true)).toMatchObject({ n: 3, note, latest: true });
		expect(versionRow('https://shop.example/k', marked[1]!, false)).toMatchObject({ n: 2, reason: 'price', held: true });
	});

	it('writes a JSON row with ISO times, leaving out what is unknown', () => {
		expect(versionRow('https://shop.example/k', versions[1]!, false)).toEqual({
			url: 'https://shop.example/k',
			n: 2,
			firstSeen: '2026-12-02T08:00:00.000Z',
			lastConfirmed: '2026-12-02T20:00:00.000Z',
			reason: 'price',
			added: 1,
			removed: 1,
			lastModified: 'Wed, 02 Dec 2026 07:59:00 GMT',
			product: { price: 21, currency: 'EUR', availability: 'OutOfStock' },
			bytes: 2100,
			cut: true,
		});
		expect(versionRow('https://shop.example/k', versions[0]!, true)).toMatchObject({ n: 3, etag: '"c3"', latest: true });
	});
});
