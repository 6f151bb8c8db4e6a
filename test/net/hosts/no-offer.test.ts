import { describe, expect, it } from 'vitest';
import type { HostBook } from '../../../src/net/hosts/book.js';
import { NO_OFFER_KEPT, noteOffer } from '../../../src/net/hosts/no-offer.js';
import { newHostRecord } from '../../../src/net/hosts/record.js';
import type { HostRecord } from '../../../src/store/model/types.js';

/** A book of one host that counts its writes. */
function book(): HostBook & { writes: number } {
	let host: HostRecord = newHostRecord(1);
	const it = { writes: 0, load: async () => {}, get: () => host, set: (_origin: string, next: HostRecord) => ((host = next), it.writes++), drain: () => [] };
	return it;
}

describe('noteOffer', () => {
	const origin = 'https://shop.example';
	it('lists a page with no offer once, drops it when it shows one, and writes the host only when the list moves', () => {
		const hosts = book();
		noteOffer(hosts, origin, `${origin}/a`, false);
		noteOffer(hosts, origin, `${origin}/a`, false);
		noteOffer(hosts, origin, `${origin}/b`, true);
		expect(hosts.get(origin).noOffer).toEqual([`${origin}/a`]);
		expect(hosts.writes).toBe(1);
		noteOffer(hosts, origin, `${origin}/a`, true);
		expect(hosts.get(origin).noOffer).toBeUndefined();
		expect(hosts.writes).toBe(2);
	});

	it(`keeps at most ${NO_OFFER_KEPT} of them`, () => {
		const hosts = book();
		for (let i = 0; i < NO_OFFER_KEPT + 5; i++) noteOffer(hosts, origin, `${origin}/${i}`, false);
		expect(hosts.get(origin).noOffer).toHaveLength(NO_OFFER_KEPT);
	});
});
