import { compile } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { RevisitError } from '../../../src/base/errors/index.js';
import { parsePrice } from '../../../src/domain/product/price.js';
import { selectorFound } from '../../../src/domain/product/selectors.js';

/** The currency the price parser names in `text`, if any, as an offer carries it (the parser is another part's, and grows). */
const named = (text: string) => {
	const currency = parsePrice(text)?.currency;
	return currency === undefined ? {} : { currency };
};

const page = parseDocument(`<main><div class="teaser"><span class="price">was</span></div>
	<div class="product"><span class="price">Now only $19.99!</span><p class="stock">Availability: <b>Sold out</b></p></div>
	<aside><span class="price">$4.99</span><p class="stock">In stock</p></aside></main>`);

describe('selectorFound', () => {
	it('reads the first matching element whose text holds a price or says an availability', () => {
		expect(selectorFound(page, { price: '.price', availability: '.stock' })).toEqual([
			{ from: 'selector', where: 'selector .price', price: 19.99, ...named('Now only $19.99!'), written: { price: 'Now only $19.99!' } },
			{ from: 'selector', where: 'selector .stock', availability: 'SoldOut', written: { availability: 'Availability: Sold out' } },
		]);
	});

	it('tries the selectors of a list in order, and takes compiled ones', () => {
		const compiled = { source: '.product .price', test: compile<AnyNode, Element>('.product .price') };
		expect(selectorFound(page, { price: ['.missing', compiled] })[0]?.where).toBe('selector .product .price');
		expect(selectorFound(page, { price: ['aside .price'] })[0]?.price).toBe(4.99);
	});

	it('reads content and href before the text', () => {
		const document = parseDocument('<span class="p" content="7.50">seven fifty</span><a class="s" href="https://schema.org/InStock">see stock</a>');
		expect(selectorFound(document, { price: '.p', availability: '.s' }).map((found) => found.price ?? found.availability)).toEqual([7.5, 'InStock']);
	});

	it('finds nothing without selectors, or where they match nothing readable', () => {
		expect(selectorFound(page, {})).toEqual([]);
		expect(selectorFound(page, { price: '.stock', availability: '.teaser' })).toEqual([]);
	});

	it('says which selector is not CSS, as a usage error', () => {
		expect(() => selectorFound(page, { price: '.price[' })).toThrow(RevisitError);
		expect(() => selectorFound(page, { price: '.price[' })).toThrow(/"\.price\[" is not a CSS selector/);
	});
});

describe('selectorFound on was/now prices', () => {
	const price = (html: string, selector: string) => {
		const [found] = selectorFound(parseDocument(html), { price: selector });
		return [found?.price, found?.listPrice];
	};

	it('a --price selector that matches the old price and the new reads the new one, and the old as the list price', () => {
		// WooCommerce: the selector matches both amounts, the first inside <del>.
		const woo =
			'<p class="price"><del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi>59,99&nbsp;<span>€</span></bdi></span></del> ' +
			'<ins><span class="woocommerce-Price-amount amount"><bdi>39,99&nbsp;<span>€</span></bdi></span></ins></p>';
		expect(price(woo, '.amount')).toEqual([39.99, 59.99]);
		expect(price(woo, '.price')).toEqual([39.99, 59.99]);
		// Magento: the old price in an `old-price` box, after the final price.
		const magento =
			'<div class="price-box"><span class="special-price"><span class="price-container"><span class="price">$32.00</span></span></span><span ' +
			'class="old-price"><span class="price-container"><span class="price-label">Regular Price</span><span class="price">$45.00</span></span>' +
			'</span></div>';
		expect(price(magento, '.price')).toEqual([32, 45]);
	});

	it('Shopify Dawn: the sale price, past the "regular" boxes, and the compare-at price struck through as the list price', () => {
		const dawn = `<div class="price price--on-sale"><div class="price__container">
			<div class="price__regular"><span class="visually-hidden">Regular price</span><span class="price-item price-item--regular">$39.99 USD</span></div>
			<div class="price__sale"><span class="visually-hidden">Regular price</span><span><s class="price-item price-item--regular">$59.99 USD</s></span>
			<span class="visually-hidden">Sale price</span><span class="price-item price-item--sale price-item--last">$39.99 USD</span></div></div></div>`;
		expect(price(dawn, '.price-item')).toEqual([39.99, 59.99]);
		// Not on sale: only "regular" boxes, whose price is the price.
		expect(price('<div class="price__regular"><span class="price-item price-item--regular">$39.99 USD</span></div>', '.price-item')).toEqual([
			39.99,
			undefined,
		]);
	});

	it('reads "Was … Now …" and "Regular price … Sale price …" in one element', () => {
		expect(price('<div class="pricing">Was $59.99 Now $39.99</div>', '.pricing')).toEqual([39.99, 59.99]);
		expect(price('<div class="pricing">Regular price $59.99 Sale price $39.99</div>', '.pricing')).toEqual([39.99, 59.99]);
	});
});

describe('selectorFound on was/now prices of pages without structured data', () => {
	const price = (html: string, selector: string) => {
		const [found] = selectorFound(parseDocument(html), { price: selector });
		return [found?.price, found?.listPrice];
	};

	it('Amazon-like: the price to pay, not the list price struck through (data-a-strike) that the same selector matches', () => {
		const amazon =
			`<div id="corePriceDisplay_desktop_feature_div"><span class="a-price aok-align-center priceToPay"><span class="a-offscreen">` +
			`$39.99</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">39<span class="a-price-decimal">` +
			`.</span></span><span class="a-price-fraction">99</span></span></span>
			<span class="a-size-small a-color-secondary">List Price: <span class="a-price a-text-price" data-a-size="s" data-a-strike="true" ` +
			`data-a-color="secondary"><span class="a-offscreen">$59.99</span><span aria-hidden="true">$59.99</span></span></span></div>`;
		expect(price(amazon, '.a-price .a-offscreen')).toEqual([39.99, 59.99]);
		// The list price first in the page makes no difference.
		expect(
			price(
				amazon.replace(/<span class="a-price aok[^]*?<\/span><\/span><\/span>\s*/, '') + '<span class="a-price"><span class="a-offscreen">$39.99</span></span>',
				'.a-price .a-offscreen',
			),
		).toEqual([39.99, 59.99]);
	});

	it('BigCommerce: the sale price, not the non-sale price beside it', () => {
		const bigcommerce =
			`<div class="productView-price"><div class="price-section price-section--withoutTax non-sale-price--withoutTax"><span ` +
			`data-product-non-sale-price-without-tax class="price price--non-sale">$59.99</span></div>
			<div class="price-section price-section--withoutTax"><span data-product-price-without-tax class="price price--withoutTax">$39.99</span></div>` +
			`</div>`;
		expect(price(bigcommerce, '.price')).toEqual([39.99, 59.99]);
	});

	it('PrestaShop: the current price, past the regular price of a discounted product', () => {
		const presta =
			'<div class="product-prices"><div class="product-discount"><span class="regular-price">19,12 €</span></div><div class="product-price h5 ' +
			'has-discount"><div class="current-price"><span class="current-price-value" content="15.30">15,30 €</span><span class="discount ' +
			'discount-percentage">Save 20%</span></div></div></div>';
		expect(price(presta, '.product-prices span')).toEqual([15.3, 19.12]);
	});
});
