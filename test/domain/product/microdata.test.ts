import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { scanMarkup } from '../../../src/domain/product/markup.js';
import { microdataFound } from '../../../src/domain/product/microdata.js';

const read = (html: string) => microdataFound(scanMarkup(parseDocument(html)).itemprops);

describe('microdataFound', () => {
	it('reads price, priceCurrency and availability from content and href, one offer per item', () => {
		const html = `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Kettle</h1>
			<div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
				<meta itemprop="priceCurrency" content="EUR"><span itemprop="price" content="2879.20">2.879,20 €</span>
				<link itemprop="availability" href="https://schema.org/InStock">In stock
			</div></div>`;
		expect(read(html).map(({ product, ...rest }) => ({ ...rest, product: product?.where }))).toEqual([
			{
				from: 'microdata',
				where: 'itemscope #2 Offer',
				currency: 'EUR',
				price: 2879.2,
				availability: 'InStock',
				written: { currency: 'EUR', price: '2879.20', availability: 'https://schema.org/InStock' },
				product: 'itemscope #1 Product',
			},
		]);
	});

	it("reads the price from the element's text ($121.95) with the price parser", () => {
		const [found] = read(
			'<div itemscope itemtype="http://schema.org/Product"><span itemprop="price">$121.95</span><span itemprop="availability">Out of stock</span></div>',
		);
		expect(found?.price).toBe(121.95);
		expect(found?.availability).toBe('OutOfStock');
		expect(found?.written).toEqual({ price: '$121.95', availability: 'Out of stock' });
	});

	it('names the currency by priceCurrency rather than by the symbol in the text', () => {
		expect(read('<div itemscope><span itemprop="price">$5.00</span><meta itemprop="priceCurrency" content="usd"></div>')[0]?.currency).toBe('USD');
	});

	it('reads each item apart, in page order, and properties outside any item', () => {
		const html = `<div itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="10"></div>
			<div itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="12"><meta itemprop="availability" content="OutOfStock"></div>
			<meta itemprop="price" content="11">`;
		expect(read(html).map(({ where, price, availability }) => ({ where, price, availability }))).toEqual([
			{ where: 'itemscope #1 Offer', price: 10, availability: undefined },
			{ where: 'itemscope #2 Offer', price: 12, availability: 'OutOfStock' },
			{ where: 'itemprop outside any itemscope', price: 11, availability: undefined },
		]);
	});

	it('reads lowPrice, several names in one itemprop, and schema.org URLs as names', () => {
		expect(read('<div itemscope itemtype="https://schema.org/AggregateOffer"><meta itemprop="lowPrice" content="15"></div>')[0]?.price).toBe(15);
		expect(read('<div itemscope><span itemprop="name price" content="7">x</span></div>')[0]?.price).toBe(7);
		expect(read('<div itemscope><meta itemprop="http://schema.org/price" content="8"></div>')[0]?.price).toBe(8);
	});

	it('keeps the first of a property written twice in one item', () => {
		expect(read('<div itemscope><meta itemprop="price" content="19.99"><span itemprop="price">$24.99</span></div>')[0]?.price).toBe(19.99);
	});

	it('finds nothing where no item states a price or an availability', () => {
		expect(
			read(
				'<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span><span ' +
					'itemprop="price">call us</span><span itemprop="availability">ask</span></div>',
			),
		).toEqual([]);
		expect(read('<p>$5</p>')).toEqual([]);
	});

	it('reads a price whose element holds itemscopes nested 10,000 deep, and names a refused one', () => {
		expect(
			read(
				`<div itemscope itemtype="https://schema.org/Offer"><span itemprop="price">` +
					`${'<div itemscope>'.repeat(10_000)}$7.25${'</div>'.repeat(10_000)}</span></div>`,
			),
		).toEqual([{ from: 'microdata', where: 'itemscope #1 Offer', price: 7.25, currency: '$', written: { price: '$7.25' } }]);
		expect(read('<div itemscope itemtype="https://schema.org/Offer"><span itemprop="price">−5 €</span></div>')).toEqual([
			{ from: 'microdata', where: 'itemscope #1 Offer', written: { price: '−5 €' }, problem: 'negative price -5 refused' },
		]);
	});
});

describe('microdataFound on real markup', () => {
	it('takes the currency its price shows where the priceCurrency written is no code (UAN with грн), and the stated code otherwise', () => {
		const offer = (code: string, shown: string) =>
			`<div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Дисплей</h1><div ` +
			`itemprop="offers" itemscope itemtype="http://schema.org/Offer">` +
			`<meta content="${code}" itemprop="priceCurrency"><span content="253" itemprop="price" class="totalPrice">${shown}</span></div></div>`;
		expect(read(offer('UAN', '253.0 грн'))).toMatchObject([{ price: 253, currency: 'UAH', written: { currency: 'UAN' } }]);
		expect(read(offer('UAH', '253.0 грн'))).toMatchObject([{ price: 253, currency: 'UAH' }]);
		// A code it states beats the symbol shown (a shop converting for its visitor names what it charges in).
		expect(read(offer('EUR', '$ 271'))).toMatchObject([{ price: 253, currency: 'EUR' }]);
		// Stated after the price, the same.
		expect(read(offer('UAN', '253.0 грн').replace(/(<meta[^>]+>)(<span.*<\/span>)/, '$2$1'))).toMatchObject([{ price: 253, currency: 'UAH' }]);
		expect(read(offer('UAN', '253'))).toMatchObject([
			{ price: 253, written: { currency: 'UAN' }, currencyProblem: 'currency "UAN" is no ISO 4217 code: not read' },
		]);
		expect(read(offer('UAN', '253'))[0]?.currency).toBeUndefined();
	});

	it('reads itemprop on <meta>, <link>, <data> (value) and <time> (datetime)', () => {
		const [found] =
			read(`<div itemscope itemtype="https://schema.org/Offer"><data itemprop="price" value="129.5">129,50 €</data><meta itemprop="priceCurrency" content="EUR">
			<link itemprop="availability" href="https://schema.org/PreOrder"><time itemprop="availabilityStarts" datetime="2027-03-01">March</time></div>`);
		expect(found).toMatchObject({ price: 129.5, currency: 'EUR', availability: 'PreOrder', written: { price: '129.5' } });
	});

	it("reads a price struck through as the list price, and the other as the price (a theme's <del> inside the offer)", () => {
		const [found] = read(
			`<div itemscope itemtype="https://schema.org/Offer"><del><span ` +
				`itemprop="price">$59.99</span></del> <ins><span itemprop="price">$39.99</span></ins></div>`,
		);
		expect(found).toMatchObject({ price: 39.99, listPrice: 59.99 });
		const [text] = read(`<div itemscope itemtype="https://schema.org/Offer"><span itemprop="price">Was $59.99 Now $39.99</span></div>`);
		expect(text).toMatchObject({ price: 39.99, listPrice: 59.99 });
	});

	it('reads a ListPrice price specification as the list price of its offer', () => {
		const [found] = read(
			`<div itemscope itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="EUR">
			<div itemprop="priceSpecification" itemscope itemtype="https://schema.org/UnitPriceSpecification"><meta itemprop="price" content="99.00"><meta ` +
				`itemprop="priceType" content="https://schema.org/ListPrice"></div>
			<div itemprop="priceSpecification" itemscope itemtype="https://schema.org/UnitPriceSpecification"><meta itemprop="price" content="79.00"></div>` +
				`</div>`,
		);
		expect(found).toMatchObject({ where: 'itemscope #1 Offer', price: 79, listPrice: 99, currency: 'EUR' });
	});

	it("names the product of each offer, and a related product as another's", () => {
		const found = read(
			`<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Lamp</span><div itemprop="offers" itemscope ` +
				`itemtype="https://schema.org/Offer"><meta itemprop="price" content="80"></div>
			<div itemprop="isRelatedTo" itemscope itemtype="https://schema.org/Product"><div itemprop="offers" itemscope itemtype="https://schema.org/Offer">` +
				`<meta itemprop="price" content="3"></div></div></div>
			<ol itemscope itemtype="https://schema.org/ItemList"><li itemprop="itemListElement" itemscope itemtype="https://schema.org/Product"><meta ` +
				`itemprop="price" content="4"></li></ol>`,
		);
		expect(found.map((item) => [item.price, item.product?.name, item.product?.other])).toEqual([
			[80, 'Lamp', undefined],
			[3, undefined, 'isRelatedTo'],
			[4, undefined, 'itemListElement'],
		]);
	});
});

describe('microdataFound on hostile nesting', () => {
	it('reads 2,000 items nested in one another, each with a price, each a product of its own part of the next', () => {
		const html =
			`${'<div itemprop="isPartOf" itemscope itemtype="https://schema.org/Product"><meta itemprop="price" content="5">'.repeat(2_000)}` +
			`${'</div>'.repeat(2_000)}`;
		const found = read(html);
		expect(found).toHaveLength(2_000);
		expect(found[0]?.price).toBe(5);
		// The outermost is the page's candidate; each inner one is the value of its parent's isPartOf.
		expect(found[0]?.product?.other).toBeUndefined();
		expect(found[1]?.product?.other).toBe('isPartOf');
	}, 20_000);
});
