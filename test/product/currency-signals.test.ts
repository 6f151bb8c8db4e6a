import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { currencyFromPage } from '../../src/product/currency-signals.js';
import { readOffer } from '../../src/product/offer.js';

const none = { stated: [], languages: [] };

// Shop pages as they are written: a price shown with `$` or `kr` and the country said only by the domain, the language or a meta.
const shop = (html: string, body: string) =>
	`<!doctype html>${html}<head><title>Trail Sandal</title></head><body><header><a href="/cart">Cart (0)</a></header>` +
	`<main><h1>Trail Sandal</h1>${body}<form action="/cart/add"><button type="submit" class="add-to-cart">Add to cart</button></form></main></body></html>`;
const read = (html: string, body: string, url?: string) => readOffer(parseDocument(shop(html, body)), url ? { url } : {});

describe('currencyFromPage', () => {
	it('keeps a code, a symbol of one currency not mapped, and a code that is none', () => {
		expect(currencyFromPage('EUR', { stated: ['USD'], languages: ['en-US'] })).toBe('EUR');
		expect(currencyFromPage('UAN', { stated: [], languages: ['en-US'] })).toBe('UAN');
	});

	it('takes a code the page states, where the symbol can stand for it', () => {
		expect(currencyFromPage('$', { stated: ['CAD'], languages: ['en-US'] })).toBe('CAD');
		expect(currencyFromPage('kr', { stated: ['NOK'], languages: [] })).toBe('NOK');
		// EUR is no dollar: the stated code of something else on the page says nothing of `$`.
		expect(currencyFromPage('$', { stated: ['EUR'], url: 'https://shop.example.com.au/p/1', languages: [] })).toBe('AUD');
	});

	it("then the URL's country domain", () => {
		expect(currencyFromPage('$', { ...none, url: 'https://www.shop.ca/p/1' })).toBe('CAD');
		expect(currencyFromPage('$', { ...none, url: 'https://shop.com.au/p/1' })).toBe('AUD');
		expect(currencyFromPage('$', { ...none, url: 'https://shop.co.nz/p/1' })).toBe('NZD');
		expect(currencyFromPage('$', { ...none, url: 'https://tienda.com.mx/p/1' })).toBe('MXN');
		expect(currencyFromPage('kr', { ...none, url: 'https://butik.se/p/1' })).toBe('SEK');
		expect(currencyFromPage('kr.', { ...none, url: 'https://butik.dk/p/1' })).toBe('DKK');
		expect(currencyFromPage('¥', { ...none, url: 'https://shop.co.jp/p/1' })).toBe('JPY');
	});

	it("then the language's region, or a language one country writes", () => {
		expect(currencyFromPage('$', { stated: [], languages: ['en-CA'] })).toBe('CAD');
		expect(currencyFromPage('$', { stated: [], languages: ['es_MX'] })).toBe('MXN');
		expect(currencyFromPage('kr', { stated: [], languages: ['sv-SE'] })).toBe('SEK');
		expect(currencyFromPage('kr', { stated: [], languages: ['nb'] })).toBe('NOK');
		expect(currencyFromPage('¥', { stated: [], languages: ['zh-CN'] })).toBe('CNY');
	});

	it('reads `$` alone on an English page, or one of no language, with no country named, as USD', () => {
		expect(currencyFromPage('$', { stated: [], url: 'https://shop.example.com/p/1', languages: ['en'] })).toBe('USD');
		expect(currencyFromPage('$', none)).toBe('USD');
		expect(currencyFromPage('$', { stated: [], languages: ['es'] })).toBe('$');
		// A country whose currency is no dollar names none of them: `$` stays as written.
		expect(currencyFromPage('$', { stated: [], languages: ['en-GB'] })).toBe('$');
		expect(currencyFromPage('kr', none)).toBe('kr');
	});

	it('names the currency of a price that wrote none from the same signals, never by the `$` rule', () => {
		expect(currencyFromPage(undefined, { ...none, url: 'https://sklep.example.pl/p/1' })).toBe('PLN');
		expect(currencyFromPage(undefined, { stated: [], languages: ['de-DE'] })).toBe('EUR');
		expect(currencyFromPage(undefined, { stated: [], languages: ['en'] })).toBeUndefined();
	});
});

describe('readOffer names the currency of a page that writes only a symbol', () => {
	const body = '<p class="price">$129.00</p>';

	it('from the domain of the URL it was read from', () => {
		expect(read('<html lang="en">', body, 'https://www.outdoorshop.ca/products/trail-sandal')?.currency).toBe('CAD');
		expect(read('<html lang="en">', body, 'https://www.outdoorshop.com/products/trail-sandal')?.currency).toBe('USD');
	});

	it('from <html lang> and og:locale', () => {
		expect(read('<html lang="en-CA">', body)?.currency).toBe('CAD');
		expect(read('<html><meta property="og:locale" content="en_AU">', body)?.currency).toBe('AUD');
		expect(read('<html lang="sv">', '<p class="price">1 299 kr</p>')).toMatchObject({ price: 1299, currency: 'SEK' });
	});

	it("from the product's microdata or a meta that states the code", () => {
		const microdata = '<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">$129.00</span><meta itemprop="priceCurrency" content="CAD"></div>';
		expect(read('<html lang="en">', `<div itemscope itemtype="https://schema.org/Product">${microdata}</div>`)).toMatchObject({ from: 'microdata', price: 129, currency: 'CAD' });
		expect(read('<html lang="en"><meta property="og:price:currency" content="NZD">', body)).toMatchObject({ from: 'page', price: 129, currency: 'NZD' });
		// A Bootstrap-era shop's bare <meta itemprop="priceCurrency"> outside any item.
		expect(read('<html lang="en">', `<meta itemprop="priceCurrency" content="AUD">${body}`)?.currency).toBe('AUD');
	});

	it('from the domain, for a price that writes no currency at all', () => {
		const bare = '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Trail Sandal</span><span itemprop="price">2399,00</span></div>';
		expect(read('<html lang="pl">', bare, 'https://sklep.example.pl/p/7133')).toMatchObject({ from: 'microdata', price: 2399, currency: 'PLN' });
	});
});
