import { readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { explainOffer, offerOf, readOffer } from '../../../src/domain/product/offer.js';

const ld = (value: unknown) => `<script type="application/ld+json">${typeof value === 'string' ? value : JSON.stringify(value)}</script>`;
const page = (head: string, body = '') =>
	parseDocument(`<!doctype html><html><head><title>Shop</title>${head}</head><body><nav><a href="/">Home</a></nav>${body}</body></html>`);
const read = (head: string, body = '', options = {}) => readOffer(page(head, body), options);

describe('readOffer', () => {
	it('reads a JSON-LD product: price, currency, availability, and where from', () => {
		expect(
			read(
				ld({
					'@context': 'https://schema.org/',
					'@type': 'Product',
					offers: { '@type': 'Offer', price: '19.99', priceCurrency: 'EUR', availability: 'https://schema.org/InStock', priceValidUntil: '2026-12-31' },
				}),
			),
		).toEqual({
			from: 'json-ld',
			price: 19.99,
			currency: 'EUR',
			availability: 'InStock',
		});
	});

	// The variants changedetection.io's restock tests serve, written afresh.
	it('reads the restock variants: "Offers" capitalised, offers as an array, priceSpecification.price, availability without a URL prefix', () => {
		expect(
			read(
				ld({
					'@context': 'http://schema.org',
					'@type': 'Product',
					name: 'Nike',
					Offers: { '@type': 'Offer', Price: '119.99', PriceCurrency: 'USD', Availability: 'http://schema.org/OutOfStock' },
				}),
			),
		).toEqual({ from: 'json-ld', price: 119.99, currency: 'USD', availability: 'OutOfStock' });
		expect(read(ld({ '@type': 'Product', offers: [{ '@type': 'Offer', price: 59, priceCurrency: 'GBP', availability: 'InStock' }] }))).toEqual({
			from: 'json-ld',
			price: 59,
			currency: 'GBP',
			availability: 'InStock',
		});
		expect(
			read(
				ld({
					'@type': 'Product',
					offers: {
						'@type': 'Offer',
						priceSpecification: { '@type': 'PriceSpecification', price: '1,099.00', priceCurrency: 'EUR' },
						availability: 'OutOfStock',
					},
				}),
			),
		).toEqual({ from: 'json-ld', price: 1099, currency: 'EUR', availability: 'OutOfStock' });
	});

	it('reads the product among other blocks on one page (WebSite + Product), past a block that is not JSON', () => {
		const head =
			ld({
				'@context': 'https://schema.org',
				'@type': 'WebSite',
				url: 'https://shop.example/',
				potentialAction: { '@type': 'SearchAction', target: 'https://shop.example/?q={q}' },
			}) +
			ld('{"@type": "Organization", "name": "Shop",,}oops') +
			ld({ '@type': 'Product', offers: { price: 5, priceCurrency: 'EUR' } });
		expect(read(head)).toEqual({ from: 'json-ld', price: 5, currency: 'EUR' });
	});

	it('reads microdata whose price is the text $121.95', () => {
		const body =
			'<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Hat</span><div itemprop="offers" itemscope ' +
			'itemtype="http://schema.org/Offer"><span itemprop="price">$121.95</span><link itemprop="availability" href="http://schema.org/InStock">' +
			'</div></div>';
		expect(read('', body)).toMatchObject({ from: 'microdata', price: 121.95, availability: 'InStock' });
	});

	it('reads Open Graph where there is nothing else', () => {
		expect(
			read(
				'<meta property="product:price:amount" content="42.00"><meta property="product:price:currency" ' +
					'content="CHF"><meta property="product:availability" content="out of stock">',
			),
		).toEqual({ from: 'opengraph', price: 42, currency: 'CHF', availability: 'OutOfStock' });
	});

	it('believes JSON-LD over microdata over Open Graph for the price', () => {
		const og = '<meta property="product:price:amount" content="30"><meta property="product:price:currency" content="USD">';
		const micro = '<div itemscope><meta itemprop="price" content="20"><meta itemprop="priceCurrency" content="USD"></div>';
		expect(read(ld({ '@type': 'Offer', price: 10, priceCurrency: 'USD' }) + og, micro)).toEqual({ from: 'json-ld', price: 10, currency: 'USD' });
		expect(read(og, micro)).toEqual({ from: 'microdata', price: 20, currency: 'USD' });
	});

	it('takes the availability from the first markup that has one, apart from the price', () => {
		const body = '<div itemscope><link itemprop="availability" href="https://schema.org/BackOrder"></div>';
		expect(
			read(ld({ '@type': 'Product', offers: { price: 10, priceCurrency: 'EUR' } }) + '<meta property="product:availability" content="in stock">', body),
		).toEqual({ from: 'json-ld', price: 10, currency: 'EUR', availability: 'BackOrder' });
	});

	it('counts one price written two ways as one price, within a markup and across markups', () => {
		const body = '<div itemscope><meta itemprop="price" content="2879.20"></div>';
		expect(
			read(
				ld({
					'@type': 'Product',
					offers: [
						{ price: 2879.2, priceCurrency: 'EUR' },
						{ price: '2879.20', priceCurrency: 'EUR' },
					],
				}),
				body,
			),
		).toEqual({ from: 'json-ld', price: 2879.2, currency: 'EUR' });
	});

	it('gives the lowest of different prices and how many there were', () => {
		const group = {
			'@type': 'ProductGroup',
			hasVariant: [29, 19, 24, 19].map((price) => ({ '@type': 'Product', offers: { price, priceCurrency: 'EUR', availability: 'OutOfStock' } })),
		};
		expect(read(ld(group))).toEqual({ from: 'json-ld', price: 19, currency: 'EUR', availability: 'OutOfStock', prices: 3 });
	});

	it('leaves out offers in another currency than the first named', () => {
		expect(read(ld({ '@type': 'Product', offers: [{ price: 20, priceCurrency: 'EUR' }, { price: 18, priceCurrency: 'GBP' }, { price: 22 }] }))).toEqual({
			from: 'json-ld',
			price: 20,
			currency: 'EUR',
			prices: 2,
		});
	});

	it('is in stock when any offer can be had now', () => {
		const offers = ['OutOfStock', 'LimitedAvailability', 'InStock'].map((availability) => ({ price: 5, availability }));
		expect(read(ld({ '@type': 'Product', offers }))?.availability).toBe('LimitedAvailability');
		expect(read(ld({ '@type': 'Product', offers: [{ availability: 'SoldOut' }, { availability: 'OutOfStock' }] }))).toEqual({
			from: 'json-ld',
			availability: 'SoldOut',
		});
	});

	it('takes the currency named elsewhere in the same markup when the priced item names none', () => {
		const body = '<div itemscope><meta itemprop="priceCurrency" content="SEK"></div><div itemscope><meta itemprop="price" content="199"></div>';
		expect(read('', body)).toEqual({ from: 'microdata', price: 199, currency: 'SEK' });
	});

	it('reads the selectors only for what no structured data gives', () => {
		const body = '<p class="price">Now only $12.00</p><p class="stock">Ausverkauft</p>';
		// `$` on a page that names no language or country: USD (currency-signals.ts).
		expect(read('', body, { price: '.price', availability: '.stock' })).toEqual({ from: 'selector', price: 12, currency: 'USD', availability: 'SoldOut' });
		expect(read(ld({ '@type': 'Offer', price: 10, priceCurrency: 'EUR' }), body, { price: '.price', availability: '.stock' })).toEqual({
			from: 'json-ld',
			price: 10,
			currency: 'EUR',
			availability: 'SoldOut',
		});
		expect(read(ld({ '@type': 'Offer', price: 10, availability: 'InStock' }), body, { price: '.price', availability: '.stock' })).toEqual({
			from: 'json-ld',
			price: 10,
			availability: 'InStock',
		});
	});

	it('has no offer for a page that states none', () => {
		expect(read('<meta property="og:title" content="About us">', '<p>Our prices start at $5.</p>')).toBeUndefined();
		expect(read(ld({ '@type': 'WebSite', name: 'Shop' }) + ld('{broken'), '<div itemscope><span itemprop="name">Hat</span></div>')).toBeUndefined();
		expect(read('', '<p class="price">call us</p>', { price: '.price', availability: '.missing' })).toBeUndefined();
		expect(readOffer(parseDocument(''))).toBeUndefined();
	});
});

describe('readOffer on whole product pages (bench/data/product/, written by bench/lib/product-pages.js)', () => {
	it.each([
		['shopify.html', { from: 'json-ld', price: 2879.2, currency: 'SEK', availability: 'InStock', prices: 2 }],
		['magento.html', { from: 'microdata', price: 121.95, currency: 'USD', availability: 'InStock' }],
		['opengraph.html', { from: 'opengraph', price: 59, currency: 'EUR', availability: 'OutOfStock' }],
		// Its offers' ListPrice specifications give the list price beside the price.
		['yoast-group.html', { from: 'json-ld', price: 1299, listPrice: 1499, currency: 'EUR', availability: 'InStock', prices: 2 }],
	])('reads %s past its menus, scripts, reviews and recommendations', (name, offer) => {
		const html = readFileSync(new URL(`../../../bench/data/product/${name}`, import.meta.url), 'utf8');
		expect(readOffer(parseDocument(html), { price: '.price', availability: '.stock' })).toEqual(offer);
	});
});

describe('explainOffer', () => {
	it('shows what each markup gave and where, selectors included, with the offer made', () => {
		const head =
			ld({ '@graph': [{ '@type': 'WebSite' }, { '@type': 'Product', offers: [{ '@type': 'Offer', price: '2879.20', priceCurrency: 'EUR' }] }] }) +
			'<meta property="og:availability" content="instock">';
		const explained = explainOffer(page(head, '<b class="price">2.879,20 €</b>'), { price: ['.price'] });
		expect(explained.offer).toEqual({ from: 'json-ld', price: 2879.2, currency: 'EUR', availability: 'InStock' });
		expect(explained.found.map(({ from, where, written }) => ({ from, where, written }))).toEqual([
			{ from: 'json-ld', where: 'script #1 @graph[1] Product.offers[0]', written: { price: '2879.20', currency: 'EUR' } },
			{ from: 'opengraph', where: 'meta og:availability', written: { availability: 'instock' } },
			{ from: 'selector', where: 'selector .price', written: { price: '2.879,20 €' } },
		]);
	});

	it('gives the same offer as readOffer', () => {
		const document = page('', '<p class="price">$3</p>');
		expect(explainOffer(document, { price: '.price' }).offer).toEqual(readOffer(document, { price: '.price' }));
		expect(explainOffer(page('')).offer).toBeUndefined();
	});
});

describe('offerOf', () => {
	it('makes no offer of nothing, and one of an availability alone', () => {
		expect(offerOf([])).toBeUndefined();
		expect(offerOf([{ from: 'opengraph', where: 'meta og:availability', availability: 'PreOrder', written: {} }])).toEqual({
			from: 'opengraph',
			availability: 'PreOrder',
		});
	});
});

describe('explainOffer and what was not read', () => {
	it('explains a refused price and a cut block as problems, and takes the price from the next markup', () => {
		const deep = `${'{"@type":"Thing","part":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
		const explained = explainOffer(
			page(
				ld(deep) + ld({ '@type': 'Product', offers: { price: '-5', priceCurrency: 'EUR' } }),
				'<div itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="5"></div>',
			),
		);
		// The refused JSON-LD offer still states the product's currency.
		expect(explained.offer).toEqual({ from: 'microdata', price: 5, currency: 'EUR' });
		expect(explained.problems).toEqual([
			'script #1: nested deeper than 64 levels, read no deeper',
			'json-ld script #2 Product.offers: negative price -5 refused',
		]);
		expect(readOffer(page(ld({ '@type': 'Offer', price: '9'.repeat(400) })))).toBeUndefined();
	});
});

describe('readOffer with a structured price and the availability only in the page', () => {
	const product = (offers: unknown) => ld({ '@type': 'Product', name: 'Hard Cider Kit', offers });
	const body = (stock: string) => `<main><h1>Hard Cider Kit</h1><p class="price">$40.00</p>${stock}</main><div class="related"><p>Sold out</p></div>`;

	it('reads the availability from the buy area where the markup gives a price and none', () => {
		expect(read(product({ price: 40, priceCurrency: 'USD' }), body('<form action="/cart/add"><button name="add">Add to cart</button></form>'))).toEqual({
			from: 'json-ld',
			price: 40,
			currency: 'USD',
			availability: 'InStock',
		});
		expect(read(product({ price: 40, priceCurrency: 'USD' }), body('<p class="stock">5 in stock</p>'))).toEqual({
			from: 'json-ld',
			price: 40,
			currency: 'USD',
			availability: 'InStock',
		});
		expect(read(product({ price: 40, priceCurrency: 'USD' }), body('<button class="add-to-cart" disabled>Add to cart</button>'))).toMatchObject({
			price: 40,
			availability: 'OutOfStock',
		});
	});

	it('keeps the price the markup gives, and the availability it states', () => {
		expect(read(product({ price: 40, priceCurrency: 'USD', availability: 'OutOfStock' }), body('<button class="add-to-cart">Add to cart</button>'))).toEqual({
			from: 'json-ld',
			price: 40,
			currency: 'USD',
			availability: 'OutOfStock',
		});
		expect(read(product({ price: 39, priceCurrency: 'USD' }), body(''))).toEqual({ from: 'json-ld', price: 39, currency: 'USD' });
	});
});

describe('readOffer with several offers of one product, and list prices', () => {
	it('gives the lowest price that can be had now, and InStock when any offer is', () => {
		const offers = [
			{ price: 19, priceCurrency: 'EUR', availability: 'https://schema.org/OutOfStock' },
			{ price: 21, priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
			{ price: 24, priceCurrency: 'EUR' },
		];
		expect(read(ld({ '@type': 'Product', offers }))).toEqual({ from: 'json-ld', price: 21, currency: 'EUR', availability: 'InStock', prices: 3 });
	});

	it('gives the list price only where it is above the price', () => {
		const spec = (list: number) =>
			ld({ '@type': 'Product', offers: { price: 40, priceCurrency: 'EUR', priceSpecification: { priceType: 'https://schema.org/ListPrice', price: list } } });
		expect(read(spec(60))).toEqual({ from: 'json-ld', price: 40, listPrice: 60, currency: 'EUR' });
		expect(read(spec(40))).toEqual({ from: 'json-ld', price: 40, currency: 'EUR' });
		expect(read(spec(30))).toEqual({ from: 'json-ld', price: 40, currency: 'EUR' });
	});

	it('reads a --price selector that matches the old price and the new as the new one', () => {
		expect(read('', '<p class="price"><del>59,99 €</del> <ins>39,99 €</ins></p>', { price: '.price' })).toEqual({
			from: 'selector',
			price: 39.99,
			listPrice: 59.99,
			currency: 'EUR',
		});
	});

	it('explains a price given as an object without writing [object Object]', () => {
		const explained = explainOffer(
			page(ld({ '@type': 'Product', offers: { '@type': 'AggregateOffer', lowPrice: { '@value': 15 }, highPrice: { '@value': 30 }, priceCurrency: 'USD' } })),
		);
		expect(explained.offer).toEqual({ from: 'json-ld', price: 15, currency: 'USD' });
		expect(JSON.stringify(explained.found)).not.toContain('[object Object]');
	});
});
