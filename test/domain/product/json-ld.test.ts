import { describe, expect, it } from 'vitest';
import { jsonLdFound, parseBlock } from '../../../src/domain/product/json-ld.js';

const read = (...blocks: unknown[]) => jsonLdFound(blocks.map((block) => (typeof block === 'string' ? block : JSON.stringify(block))));
/** The offers without `written` and what names their product, for short assertions. */
const offers = (...blocks: unknown[]) => read(...blocks).map(({ written: _, product: _product, keys: _keys, ...rest }) => rest);

describe('jsonLdFound', () => {
	it('reads a Product whose offers is an object', () => {
		expect(
			offers({
				'@context': 'https://schema.org',
				'@type': 'Product',
				name: 'Kettle',
				offers: { '@type': 'Offer', price: '2879.20', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
			}),
		).toEqual([{ from: 'json-ld', where: 'script #1 Product.offers', price: 2879.2, currency: 'EUR', availability: 'InStock' }]);
	});

	it('reads offers as an array, and offers with no @type', () => {
		const found = offers({
			'@type': 'Product',
			offers: [
				{ '@type': 'Offer', price: 10, priceCurrency: 'USD' },
				{ price: '12.50', priceCurrency: 'USD', availability: 'http://schema.org/OutOfStock' },
			],
		});
		expect(found).toEqual([
			{ from: 'json-ld', where: 'script #1 Product.offers[0]', price: 10, currency: 'USD' },
			{ from: 'json-ld', where: 'script #1 Product.offers[1]', price: 12.5, currency: 'USD', availability: 'OutOfStock' },
		]);
	});

	it('reads keys with capital letters (Offers, Price, PriceCurrency, Availability)', () => {
		expect(offers({ '@type': 'Product', Offers: { '@type': 'Offer', Price: '19.99', PriceCurrency: 'gbp', Availability: 'InStock' } })).toEqual([
			{ from: 'json-ld', where: 'script #1 Product.Offers', price: 19.99, currency: 'GBP', availability: 'InStock' },
		]);
	});

	it('reads an availability without the URL prefix, as an @id and in a list', () => {
		expect(offers({ '@type': 'Product', offers: { price: 5, availability: 'OutOfStock' } })[0]?.availability).toBe('OutOfStock');
		expect(offers({ '@type': 'Product', offers: { price: 5, availability: 'schema:PreOrder' } })[0]?.availability).toBe('PreOrder');
		expect(offers({ '@type': 'Product', offers: { price: 5, availability: { '@id': 'http://schema.org/BackOrder' } } })[0]?.availability).toBe('BackOrder');
		expect(offers({ '@type': 'Product', offers: { price: 5, availability: ['https://schema.org/InStock'] } })[0]?.availability).toBe('InStock');
	});

	it('reads priceSpecification.price, as an object or an array, skipping a list price', () => {
		expect(
			offers({ '@type': 'Product', offers: { '@type': 'Offer', priceSpecification: { '@type': 'UnitPriceSpecification', price: 49, priceCurrency: 'EUR' } } }),
		).toEqual([{ from: 'json-ld', where: 'script #1 Product.offers', price: 49, currency: 'EUR' }]);
		const specs = [
			{ '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: 99, priceCurrency: 'EUR' },
			{ '@type': 'UnitPriceSpecification', price: 79, priceCurrency: 'EUR' },
		];
		expect(offers({ '@type': 'Product', offers: { '@type': 'Offer', priceSpecification: specs } })[0]?.price).toBe(79);
		expect(offers({ '@type': 'Offer', priceSpecification: { minPrice: '490', priceCurrency: 'EUR' } })[0]?.price).toBe(490);
		expect(read({ '@type': 'Offer', priceCurrency: '', priceSpecification: { price: 9, priceCurrency: 'nok' } })[0]).toMatchObject({
			currency: 'NOK',
			written: { currency: 'nok' },
		});
	});

	it('reads an AggregateOffer by its lowPrice (highPrice aside), and a bare Offer', () => {
		expect(
			offers({ '@type': 'Product', offers: { '@type': 'AggregateOffer', lowPrice: '15.00', highPrice: '30.00', priceCurrency: 'USD', offerCount: 4 } }),
		).toEqual([{ from: 'json-ld', where: 'script #1 Product.offers', price: 15, currency: 'USD' }]);
		expect(offers({ '@type': 'Offer', price: 3, priceCurrency: 'CHF' })).toEqual([{ from: 'json-ld', where: 'script #1 Offer', price: 3, currency: 'CHF' }]);
	});

	it("reads an AggregateOffer's own offers when it has no price", () => {
		expect(
			offers({
				'@type': 'Product',
				offers: {
					'@type': 'AggregateOffer',
					offers: [
						{ '@type': 'Offer', price: 7 },
						{ '@type': 'Offer', price: 8 },
					],
				},
			}).map((item) => item.price),
		).toEqual([7, 8]);
	});

	it('finds the product in @graph, in an array of blocks, and among other blocks (WebSite + Product)', () => {
		const product = { '@type': 'Product', offers: { '@type': 'Offer', price: 20, priceCurrency: 'EUR' } };
		expect(offers({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: 'Shop' }, product] })[0]?.where).toBe(
			'script #1 @graph[1] Product.offers',
		);
		expect(offers([{ '@type': 'BreadcrumbList', itemListElement: [] }, product])[0]?.where).toBe('script #1 [1] Product.offers');
		expect(offers({ '@type': 'WebSite', potentialAction: { '@type': 'SearchAction' } }, product)).toEqual([
			{ from: 'json-ld', where: 'script #2 Product.offers', price: 20, currency: 'EUR' },
		]);
	});

	it('reads @type as an array and with a URL prefix', () => {
		expect(offers({ '@type': ['Product', 'Car'], offers: { '@type': 'http://schema.org/Offer', price: 1 } })[0]?.price).toBe(1);
		expect(offers({ '@type': 'http://schema.org/Offer', price: 2 })[0]?.where).toBe('script #1 Offer');
		expect(offers({ '@type': ['schema:Offer'], price: 4 })[0]?.price).toBe(4);
	});

	it("reads a ProductGroup's variants, each with its offers", () => {
		const group = {
			'@type': 'ProductGroup',
			name: 'T-shirt',
			hasVariant: [
				{ '@type': 'Product', name: 'S', offers: { '@type': 'Offer', price: 19, priceCurrency: 'EUR', availability: 'https://schema.org/OutOfStock' } },
				{ '@type': 'Product', name: 'L', offers: { '@type': 'Offer', price: 21, priceCurrency: 'EUR', availability: 'https://schema.org/InStock' } },
			],
		};
		expect(offers(group)).toEqual([
			{ from: 'json-ld', where: 'script #1 ProductGroup.hasVariant[0] Product.offers', price: 19, currency: 'EUR', availability: 'OutOfStock' },
			{ from: 'json-ld', where: 'script #1 ProductGroup.hasVariant[1] Product.offers', price: 21, currency: 'EUR', availability: 'InStock' },
		]);
	});

	it("names other products' offers as theirs (related, similar), and leaves out the group a variant belongs to", () => {
		const other = { '@type': 'Product', offers: { price: 1 } };
		const found = read({
			'@type': 'Product',
			offers: { price: 50 },
			isRelatedTo: other,
			isSimilarTo: [other],
			isVariantOf: { '@type': 'ProductGroup', hasVariant: [other] },
		});
		expect(found.map((item) => [item.price, item.product?.other])).toEqual([
			[50, undefined],
			[1, 'isRelatedTo'],
			[1, 'isSimilarTo'],
		]);
	});

	it('counts an offer once: written twice under one @id, or referred to by its @id', () => {
		const offer = { '@type': 'Offer', '@id': '#o', price: 9 };
		expect(offers({ '@graph': [offer, { '@type': 'Product', offers: offer }] })).toHaveLength(1);
		// Read where its product refers to it, as that product's.
		expect(offers({ '@graph': [offer, { '@type': 'Product', offers: { '@id': '#o' } }] })).toEqual([
			{ from: 'json-ld', where: 'script #1 @graph[1] Product.offers', price: 9 },
		]);
		expect(offers({ '@type': 'Product', offers: [{ price: 9 }, { price: 9 }] })).toHaveLength(2);
	});

	it('reads prices written as strings in either convention, or with a symbol', () => {
		expect(
			offers({ '@type': 'Offer', price: '1.299,00' }, { '@type': 'Offer', price: '1,299.00' }, { '@type': 'Offer', price: '$19.99' }).map((item) => item.price),
		).toEqual([1299, 1299, 19.99]);
	});

	it('keeps what was written, for rules test to show', () => {
		expect(read({ '@type': 'Offer', price: '2879.20', priceCurrency: 'eur', availability: 'http://schema.org/InStock' })[0]?.written).toEqual({
			price: '2879.20',
			currency: 'eur',
			availability: 'http://schema.org/InStock',
		});
	});

	it('skips a block that is not JSON and reads the others, numbering blocks as the page has them', () => {
		expect(offers('{"@type": "Product", "offers": {"price": 1', { '@type': 'Offer', price: 2 })).toEqual([
			{ from: 'json-ld', where: 'script #2 Offer', price: 2 },
		]);
	});

	it('finds nothing in blocks with no offer, or offers with neither price nor availability', () => {
		expect(
			read(
				{ '@type': 'WebSite', name: 'x' },
				{ '@type': 'Product', name: 'y' },
				{ '@type': 'Product', offers: { priceCurrency: 'EUR' } },
				'null',
				'42',
				'"text"',
			),
		).toEqual([]);
		expect(read({ '@type': 'Product', offers: { price: null, availability: 'Sometimes' } })).toEqual([]);
	});
});

describe('parseBlock', () => {
	it('forgives HTML comments, CDATA, trailing commas and raw line breaks in strings', () => {
		expect(parseBlock('<!-- {"a": 1} -->')).toEqual({ a: 1 });
		expect(parseBlock('<![CDATA[{"a": 1}]]>')).toEqual({ a: 1 });
		expect(parseBlock('{"a": [1, 2,], "b": {"c": 3,},}')).toEqual({ a: [1, 2], b: { c: 3 } });
		expect(parseBlock('{"description": "two\nlines"}')).toEqual({ description: 'two lines' });
	});

	it('gives undefined for what is not JSON even so', () => {
		expect(parseBlock('{"a": ')).toBeUndefined();
		expect(parseBlock('')).toBeUndefined();
		expect(parseBlock('var x = {}')).toBeUndefined();
	});
});

describe('jsonLdFound on deep blocks and refused prices', () => {
	it('cuts a block nested 10,000 deep at 64 levels, saying so, and still reads a Product beside it', () => {
		const deep = `${'{"@type":"Thing","part":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
		const problems: string[] = [];
		expect(
			jsonLdFound([deep, '{"@type":"Product","offers":{"price":"24.50","priceCurrency":"EUR"}}'], problems).map(
				({ written: _, product: _product, ...rest }) => rest,
			),
		).toEqual([{ from: 'json-ld', where: 'script #2 Product.offers', price: 24.5, currency: 'EUR' }]);
		expect(problems).toEqual(['script #1: nested deeper than 64 levels, read no deeper']);
		// The same in arrays, and an offer deep in the same block at a sane depth still counts.
		const arrays: string[] = [];
		expect(offers(`[${'['.repeat(10_000)}${']'.repeat(10_000)}, {"@type":"Offer","price":"3"}]`)).toEqual([
			{ from: 'json-ld', where: 'script #1 [1] Offer', price: 3 },
		]);
		jsonLdFound([`${'['.repeat(10_000)}${']'.repeat(10_000)}`], arrays);
		expect(arrays).toEqual(['script #1: nested deeper than 64 levels, read no deeper']);
		// Offers of offers (an AggregateOffer's), 10,000 deep.
		const offersDeep: string[] = [];
		expect(jsonLdFound([`${'{"@type":"AggregateOffer","offers":'.repeat(10_000)}{"price":3}${'}'.repeat(10_000)}`], offersDeep)).toEqual([]);
		expect(offersDeep).toEqual(['script #1: nested deeper than 64 levels, read no deeper']);
	});

	it('names a negative or absurd price, reading no price from it', () => {
		expect(read({ '@type': 'Offer', price: '-5', availability: 'InStock' })).toEqual([
			{
				from: 'json-ld',
				where: 'script #1 Offer',
				availability: 'InStock',
				written: { price: '-5', availability: 'InStock' },
				problem: 'negative price -5 refused',
			},
		]);
		expect(read({ '@type': 'Offer', price: -5 })[0]?.problem).toBe('negative price -5 refused');
		expect(read(`{"@type":"Offer","price":"${'9'.repeat(400)}"}`)[0]).toMatchObject({ problem: 'price of 400 digits refused as absurd' });
		expect(read(`{"@type":"Offer","price":${'9'.repeat(400)}}`)[0]).toMatchObject({ problem: 'price Infinity refused as absurd' });
		expect(read(`{"@type":"Offer","price":"${'9'.repeat(400)}"}`)[0]?.price).toBeUndefined();
	});
});

describe('jsonLdFound and a currency that is no ISO 4217 code', () => {
	it('reads no currency from a priceCurrency holding escape sequences, and names the problem', () => {
		const [found] = read({ '@type': 'Offer', price: '15', priceCurrency: 'EUR\x1b[2J\u009b31m' });
		expect(found).toMatchObject({
			price: 15,
			written: { price: '15', currency: 'EUR\x1b[2J\u009b31m' },
			currencyProblem: 'currency "EUR\\u001b[2J\u009b31m" is no ISO 4217 code: not read',
		});
		expect(found?.currency).toBeUndefined();
	});

	it('reads a symbol as its code, and keeps a symbol several currencies share for the page to name', () => {
		expect(offers({ '@type': 'Offer', price: '15', priceCurrency: '€' })).toMatchObject([{ currency: 'EUR' }]);
		expect(offers({ '@type': 'Offer', price: '15', priceCurrency: '$' })).toMatchObject([{ currency: '$' }]);
		expect(offers({ '@type': 'Offer', price: '15', priceCurrency: 'VED' })).toMatchObject([{ currency: 'VED' }]);
	});
});

describe('jsonLdFound on what real shops write', () => {
	it('takes the currency the price writes where the priceCurrency is no code', () => {
		expect(offers({ '@type': 'Product', offers: { price: '253.0 грн', priceCurrency: 'UAN' } })).toMatchObject([{ price: 253, currency: 'UAH' }]);
		// No code and no currency in the price: the offer has none, and the problem says why.
		expect(offers({ '@type': 'Product', offers: { price: '253', priceCurrency: 'UAN' } })).toEqual([
			{ from: 'json-ld', where: 'script #1 Product.offers', price: 253, currencyProblem: 'currency "UAN" is no ISO 4217 code: not read' },
		]);
		expect(offers({ '@type': 'Product', offers: { price: '$271', priceCurrency: 'EUR' } })).toMatchObject([{ price: 271, currency: 'EUR' }]);
	});

	it('reads a block wrapped in CDATA or an HTML comment, as old templates write it', () => {
		const product = '{"@type":"Product","offers":{"price":"12.50","priceCurrency":"EUR"}}';
		for (const block of [
			`/*<![CDATA[*/ ${product} /*]]>*/`,
			`//<![CDATA[\n${product}\n//]]>`,
			`<!-- ${product} -->`,
			`<!--//--><![CDATA[//><!--\n${product}\n//--><!]]>`,
			`\n  <![CDATA[${product}]]>\n`,
		]) {
			expect(offers(block), block).toEqual([{ from: 'json-ld', where: 'script #1 Product.offers', price: 12.5, currency: 'EUR' }]);
		}
		// A "//" inside a string at the end is no comment.
		expect(parseBlock('{"url": "https://shop.example/p"}')).toEqual({ url: 'https://shop.example/p' });
	});

	it('reads prices given as objects and arrays, and never writes one as [object Object]', () => {
		const found = read(
			{ '@type': 'Product', offers: { price: { '@value': '19.99' }, priceCurrency: 'EUR' } },
			{
				'@type': 'Product',
				offers: { '@type': 'AggregateOffer', lowPrice: { '@type': 'PriceSpecification', price: 15, priceCurrency: 'USD' }, priceCurrency: ['USD'] },
			},
			{ '@type': 'Product', offers: { price: ['24.00', '26.00'], priceCurrency: 'GBP' } },
			{ '@type': 'Product', offers: { price: { nothing: 'here' }, availability: 'InStock' } },
		);
		expect(found.map((item) => [item.price, item.currency, item.written.price])).toEqual([
			[19.99, 'EUR', '19.99'],
			[15, 'USD', '15'],
			[24, 'GBP', '24.00'],
			[undefined, undefined, undefined],
		]);
		expect(JSON.stringify(found)).not.toContain('[object Object]');
	});

	it('reads a ListPrice, StrikethroughPrice or SRP specification as the list price, beside the price or the other specification', () => {
		const list = (priceType: string) => ({ '@type': 'UnitPriceSpecification', priceType, price: '59.99', priceCurrency: 'USD' });
		expect(
			offers({ '@type': 'Product', offers: { price: '39.99', priceCurrency: 'USD', priceSpecification: list('https://schema.org/StrikethroughPrice') } })[0],
		).toMatchObject({ price: 39.99, listPrice: 59.99 });
		expect(
			offers({
				'@type': 'Product',
				offers: { priceSpecification: [list('https://schema.org/ListPrice'), { '@type': 'UnitPriceSpecification', price: '39.99', priceCurrency: 'USD' }] },
			})[0],
		).toMatchObject({ price: 39.99, listPrice: 59.99, currency: 'USD' });
		expect(offers({ '@type': 'Offer', priceSpecification: [list('SRP'), { price: 45 }] })[0]).toMatchObject({ price: 45, listPrice: 59.99 });
		// A price per kilogram is not the price when the item's own is given.
		expect(
			offers({ '@type': 'Offer', priceSpecification: [{ price: 12.9, referenceQuantity: { value: 1, unitCode: 'KGM' } }, { price: 3.23 }] })[0]?.price,
		).toBe(3.23);
	});

	it('names a product inside an ItemList, its itemListElement or an OfferCatalog as another', () => {
		const found = read({
			'@graph': [
				{ '@type': 'Product', name: 'Main', offers: { price: 100 } },
				{ '@type': 'ItemList', itemListElement: [{ '@type': 'ListItem', item: { '@type': 'Product', offers: { price: 9 } } }] },
				{ '@type': 'WebPage', hasPart: { itemListElement: [{ '@type': 'Product', offers: { price: 8 } }] } },
			],
		});
		expect(found.map((item) => [item.price, item.product?.other])).toEqual([
			[100, undefined],
			[9, 'inside ItemList'],
			[8, 'itemListElement'],
		]);
	});

	it("gives each offer the keys a URL's ?variant= finds it by: its url, @id and sku, and its variant's", () => {
		const group = { '@type': 'ProductGroup', hasVariant: [{ '@type': 'Product', sku: 'TEE-S', url: '/products/tee?variant=11', offers: { price: 19 } }] };
		expect(read(group)[0]?.keys).toEqual(['/products/tee?variant=11', 'TEE-S']);
	});
});
