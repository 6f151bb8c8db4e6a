import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { explainOffer, offerOf, readOffer } from '../../../../src/domain/product/offer.js';
import { pageFound } from '../../../../src/domain/product/page/found.js';
import { SHOP_PAGES } from '../../../helpers/page-shops.js';

describe('pageFound', () => {
	for (const [name, { html, offer }] of Object.entries(SHOP_PAGES)) {
		it(`reads the offer a person reads on a shop page without structured data: ${name}`, () => {
			const found = pageFound(parseDocument(html));
			const read = offerOf(found);
			if (offer === undefined) expect(read).toBeUndefined();
			else expect(read).toEqual({ from: 'page', ...offer });
			// rules test explains the offer the sweep reads, not another.
			expect(explainOffer(parseDocument(html)).offer).toEqual(readOffer(parseDocument(html)));
		});
	}

	it('says why the other prices were not taken', () => {
		const woo: string[] = [];
		pageFound(parseDocument(SHOP_PAGES['woo']!.html), woo);
		expect(woo).toEqual(['span.price "$ 12.00": in a block of other products (section.related.products)']);
		const polish: string[] = [];
		pageFound(parseDocument(SHOP_PAGES['polish']!.html), polish);
		expect(polish).toEqual(['del "159,00 zł": struck through (<del>)']);
		const amazon: string[] = [];
		pageFound(parseDocument(SHOP_PAGES['amazon']!.html), amazon);
		expect(amazon.some((line) => line.includes('"$39.99": struck through'))).toBe(true);
		expect(amazon.some((line) => line.includes('"$9.99": in a block of other products'))).toBe(true);
		expect(amazon.some((line) => line.includes("in the page's header"))).toBe(true);
	});

	it('is what readOffer falls back to, and only where no markup and no --price selector gave a price', () => {
		const amazon = parseDocument(SHOP_PAGES['amazon']!.html);
		expect(readOffer(amazon)).toMatchObject({ from: 'page', price: 29.99 });
		// A selector given is the user's word: the page is not searched behind it.
		expect(readOffer(amazon, { price: '.no-such-price' })).toBeUndefined();
		const structured = parseDocument(
			`<script type="application/ld+json">{"@type":"Product","offers":{"price":"10.00","priceCurrency":"USD"}}</script>${SHOP_PAGES['woo']!.html}`,
		);
		// The markup's price stands; the page gives only the availability the markup does not state (its enabled buy button).
		expect(readOffer(structured)).toEqual({ from: 'json-ld', price: 10, currency: 'USD', availability: 'InStock' });
	});
});
