import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { scanMarkup } from '../../../src/domain/product/markup.js';
import { readOffer } from '../../../src/domain/product/offer.js';
import { rdfaFound } from '../../../src/domain/product/rdfa.js';

const read = (html: string) => rdfaFound(scanMarkup(parseDocument(html)).properties).map(({ product: _product, ...rest }) => rest);

describe('rdfaFound', () => {
	it('reads RDFa Lite with vocab="https://schema.org/": typeof Product and Offer, property price, priceCurrency, availability', () => {
		// As Drupal Commerce and the RDFa examples on schema.org write it.
		const html = `<div vocab="https://schema.org/" typeof="Product"><span property="name">Kettle</span>
			<div property="offers" typeof="Offer"><meta property="priceCurrency" content="EUR"><span property="price" content="2879.20">2.879,20 €</span>
			<link property="availability" href="https://schema.org/InStock">In stock</div></div>`;
		expect(read(html)).toEqual([
			{
				from: 'rdfa',
				where: 'typeof #2 Offer',
				currency: 'EUR',
				price: 2879.2,
				availability: 'InStock',
				written: { currency: 'EUR', price: '2879.20', availability: 'https://schema.org/InStock' },
			},
		]);
	});

	it('reads the prefix forms: schema: (known without a declaration), a declared prefix, and full URLs', () => {
		expect(read('<div typeof="schema:Offer"><span property="schema:price">$12.50</span></div>')[0]).toMatchObject({ price: 12.5, currency: '$' });
		expect(
			read(
				'<div prefix="s: http://schema.org/" typeof="s:Offer"><meta property="s:price" content="9"><meta property="s:priceCurrency" content="rur"></div>',
			)[0],
		).toMatchObject({ price: 9, currency: 'RUB' });
		expect(read('<div typeof="http://schema.org/Offer"><meta property="http://schema.org/price" content="7"></div>')[0]?.price).toBe(7);
	});

	it('reads no other vocabulary: Open Graph metas, bare names without a schema.org vocab, an undeclared prefix', () => {
		expect(read('<html><head><meta property="og:price:amount" content="5"><meta property="product:price:amount" content="5"></head></html>')).toEqual([]);
		expect(read('<div vocab="http://purl.org/goodrelations/v1#" typeof="Offering"><span property="price">5</span></div>')).toEqual([]);
		expect(read('<div typeof="Offer"><span property="gr:price">5</span></div>')).toEqual([]);
	});

	it("is read by readOffer after microdata, and only this page's product's offers", () => {
		const html =
			`<html><head><title>Kettle</title></head><body><div vocab="https://schema.org/" typeof="Product"><h1 property="name">Kettle</h1>
			<div property="offers" typeof="Offer"><meta property="price" content="49"><meta property="priceCurrency" content="EUR"></div>
			<div property="isRelatedTo" typeof="Product"><span property="name">Filter</span><div property="offers" typeof="Offer"><meta property="price" ` +
			`content="5"></div></div></div></body></html>`;
		expect(readOffer(parseDocument(html))).toEqual({ from: 'rdfa', price: 49, currency: 'EUR' });
	});
});
