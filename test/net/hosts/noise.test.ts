import { describe, expect, it } from 'vitest';
import { HOST_PAGES, hostLearned, MAX_HOST_NOISE, MAX_PAGE_NOISE, noiseOf, pageLearned, placesAt, templateOf } from '../../../src/net/hosts/noise.js';
import { newHostRecord } from '../../../src/net/hosts/record.js';

describe('learned noise per host and template', () => {
	it('generalises ids and the last segment of a path, and keeps query names', () => {
		expect(templateOf('https://shop.example/product/17?ref=mail&a=1')).toBe('/product/*?a&ref');
		expect(templateOf('https://shop.example/p/red-shoes')).toBe('/p/*');
		expect(templateOf('https://shop.example/')).toBe('/');
	});

	it('applies a place to the template once learned on enough pages, from that time on', () => {
		let host = newHostRecord(0);
		for (let i = 1; i <= HOST_PAGES; i++) host = hostLearned(host, `https://s/item/${i}`, ['html:aside.ad'], i * 10);
		host = hostLearned(host, 'https://s/item/1', ['html:aside.ad'], 99);
		expect(host.noise).toEqual([{ template: '/item/*', at: 'html:aside.ad', pages: expect.any(Array), since: 10, applies: HOST_PAGES * 10 }]);
		const entries = noiseOf({ learned: [{ at: 'html:p.t', since: 5 }] }, host.noise, 'https://s/item/77');
		expect(placesAt(entries, 29)).toEqual(['html:p.t']);
		expect(placesAt(entries, 30)).toEqual(['html:aside.ad', 'html:p.t']);
		expect(noiseOf(undefined, host.noise, 'https://s/about')).toEqual([]);
	});

	it('is bounded per host (what applies kept first) and per page (newest kept)', () => {
		let host = newHostRecord(0);
		host = hostLearned(hostLearned(hostLearned(host, 'https://s/a/1', ['keep'], 1), 'https://s/a/2', ['keep'], 1), 'https://s/a/3', ['keep'], 1);
		for (let i = 0; i < MAX_HOST_NOISE + 20; i++) host = hostLearned(host, 'https://s/b/1', [`p${i}`], 100 + i);
		expect(host.noise).toHaveLength(MAX_HOST_NOISE);
		expect(host.noise!.some((entry) => entry.at === 'keep')).toBe(true);
		const page = pageLearned(
			undefined,
			Array.from({ length: MAX_PAGE_NOISE + 5 }, (_, i) => `x${i}`),
			1,
		);
		expect(page).toHaveLength(MAX_PAGE_NOISE);
		expect(page.at(-1)!.at).toBe(`x${MAX_PAGE_NOISE + 4}`);
	});
});
