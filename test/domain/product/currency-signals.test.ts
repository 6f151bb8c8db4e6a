import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { currencyFromPage } from '../../../src/domain/product/currency-signals.js';
import { explainOffer, readOffer } from '../../../src/domain/product/offer.js';

const none = { stated: [], languages: [] };

// Shop pages as they are written: a price shown with `$` or `kr` and the country said only by the domain, the language or a meta.
const shop = (html: string, body: string) =>
	`<!doctype html>${html}<head><title>Trail Sandal</title></head><body><header><a href="/cart">Cart (0)</a></header>` +
	`<main><h1>Trail Sandal</h1>${body}<form action="/cart/add"><button type="submit" class="add-to-cart">Add to cart</button></form></main></body></html>`;
const read = (html: string, body: string, url?: string) => readOffer(parseDocument(shop(html, body)), url ? { url } : {});

describe('currencyFromPage', () => {
	it('keeps a code; a code that is none is no currency', () => {
		expect(currencyFromPage('EUR', { stated: ['USD'], languages: ['en-US'] })).toBe('EUR');
		expect(currencyFromPage('UAN', { stated: [], languages: ['en-US'] })).toBeUndefined();
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
		// A currency is a code: where nothing names which, the price has none.
		expect(currencyFromPage('$', { stated: [], languages: ['es'] })).toBeUndefined();
		// A country whose currency is no dollar names none of them.
		expect(currencyFromPage('$', { stated: [], languages: ['en-GB'] })).toBeUndefined();
		expect(currencyFromPage('kr', none)).toBeUndefined();
	});

	it('reads `$` by the country of its domain wherever a dollar or a peso is written so', () => {
		const domains: Array<[string, string]> = [
			['tienda.example.com.ar', 'ARS'],
			['tienda.example.ar', 'ARS'],
			['tienda.example.com.mx', 'MXN'],
			['tienda.example.cl', 'CLP'],
			['tienda.example.com.co', 'COP'],
			['shop.example.ca', 'CAD'],
			['shop.example.com.au', 'AUD'],
			['shop.example.co.nz', 'NZD'],
			['shop.example.com.sg', 'SGD'],
			['shop.example.com.hk', 'HKD'],
			['shop.example.com.tw', 'TWD'],
			['tienda.example.com.uy', 'UYU'],
			['tienda.example.com.do', 'DOP'],
			['shop.example.com.jm', 'JMD'],
			['tienda.example.com.ec', 'USD'],
		];
		for (const [host, code] of domains)
			expect([host, currencyFromPage('$', { stated: [], url: `https://${host}/p/1`, languages: ['es'] })]).toEqual([host, code]);
		// A bare .co is a generic domain as often as Colombia's: it names no country.
		expect(currencyFromPage('$', { stated: [], url: 'https://brand.co/p/1', languages: ['es'] })).toBeUndefined();
	});

	it('reads `kr` and its words by the domain: .se SEK, .no NOK, .dk DKK', () => {
		expect(currencyFromPage('kr', { ...none, url: 'https://butik.example.se/p/1' })).toBe('SEK');
		expect(currencyFromPage('kr', { ...none, url: 'https://butikk.example.no/p/1' })).toBe('NOK');
		expect(currencyFromPage('kr.', { ...none, url: 'https://butik.example.dk/p/1' })).toBe('DKK');
		expect(currencyFromPage('kroner', { ...none, url: 'https://butikk.example.no/p/1' })).toBe('NOK');
		expect(currencyFromPage('kronor', { ...none, url: 'https://butik.example.com/p/1' })).toBeUndefined();
	});

	it('reads words as their symbols are read: dollars by the country, pounds as sterling unless the page names another pound', () => {
		expect(currencyFromPage('dollars', { ...none, url: 'https://shop.example.ca/p/1' })).toBe('CAD');
		expect(currencyFromPage('dollars', { stated: [], languages: ['en'] })).toBe('USD');
		expect(currencyFromPage('pesos', { ...none, url: 'https://tienda.example.com.mx/p/1' })).toBe('MXN');
		expect(currencyFromPage('pesos', { stated: [], languages: ['es'] })).toBeUndefined();
		expect(currencyFromPage('pounds', none)).toBe('GBP');
		expect(currencyFromPage('pounds', { ...none, url: 'https://shop.example.co.uk/p/1' })).toBe('GBP');
		expect(currencyFromPage('pounds', { ...none, url: 'https://shop.example.de/p/1' })).toBe('GBP');
		expect(currencyFromPage('pounds', { ...none, url: 'https://shop.example.com.eg/p/1' })).toBe('EGP');
		expect(currencyFromPage('pounds', { stated: ['LBP'], languages: ['en'] })).toBe('LBP');
	});

	it('reads `£` as the pound of its domain where that is no sterling, else as sterling', () => {
		const domains: Array<[string, string]> = [
			['shop.example.com.eg', 'EGP'],
			['shop.example.eg', 'EGP'],
			['shop.example.com.lb', 'LBP'],
			['shop.example.sy', 'SYP'],
			['shop.example.sd', 'SDG'],
			['shop.example.ss', 'SSP'],
			['shop.example.gi', 'GIP'],
			['shop.example.fk', 'FKP'],
			['shop.example.com.sh', 'SHP'],
			['shop.example.co.uk', 'GBP'],
			['shop.example.com', 'GBP'],
			['shop.example.de', 'GBP'],
			['brand.sh', 'GBP'],
		];
		for (const [host, code] of domains) expect([host, currencyFromPage('£', { ...none, url: `https://${host}/p/1` })]).toEqual([host, code]);
		expect(currencyFromPage('￡', { ...none, url: 'https://shop.example.com.eg/p/1' })).toBe('EGP');
		expect(currencyFromPage('£', { stated: [], languages: ['ar-EG'] })).toBe('EGP');
		expect(currencyFromPage('£', { stated: ['EGP'], url: 'https://shop.example.com/p/1', languages: ['en'] })).toBe('EGP');
		expect(currencyFromPage('£', none)).toBe('GBP');
		// A `£` is no dollar: `$` on a .com.eg page is still named by nothing there.
		expect(currencyFromPage('$', { stated: [], url: 'https://shop.example.com.eg/p/1', languages: ['en'] })).toBeUndefined();
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
		const microdata =
			'<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span ' +
			'itemprop="price">$129.00</span><meta itemprop="priceCurrency" content="CAD"></div>';
		expect(read('<html lang="en">', `<div itemscope itemtype="https://schema.org/Product">${microdata}</div>`)).toMatchObject({
			from: 'microdata',
			price: 129,
			currency: 'CAD',
		});
		expect(read('<html lang="en"><meta property="og:price:currency" content="NZD">', body)).toMatchObject({ from: 'page', price: 129, currency: 'NZD' });
		// A Bootstrap-era shop's bare <meta itemprop="priceCurrency"> outside any item.
		expect(read('<html lang="en">', `<meta itemprop="priceCurrency" content="AUD">${body}`)?.currency).toBe('AUD');
	});

	it('from the page, for a price written in words, else with no currency and the problem named', () => {
		expect(read('<html lang="en">', '<p class="price">price 3.5 pounds</p>', 'https://shop.example.com/p/1')).toMatchObject({ price: 3.5, currency: 'GBP' });
		expect(read('<html lang="en">', '<p class="price">Only 12 dollars</p>', 'https://www.outdoorshop.ca/p/1')).toMatchObject({ price: 12, currency: 'CAD' });
		expect(read('<html lang="es">', '<p class="price">$ 1.299,00</p>', 'https://tienda.example.com.ar/p/1')).toMatchObject({ price: 1299, currency: 'ARS' });
		const unnamed = read('<html lang="en">', '<p class="price">1 299 kr</p>', 'https://www.outdoorshop.com/p/1');
		expect(unnamed).toMatchObject({ price: 1299 });
		expect(unnamed).not.toHaveProperty('currency');
		const explained = explainOffer(parseDocument(shop('<html lang="en">', '<p class="price">1 299 kr</p>')), { url: 'https://www.outdoorshop.com/p/1' });
		expect(explained.problems).toContain(
			'the currency "kr": no ISO 4217 code, and the page names none it stands for (a stated code, its domain, its language): not read',
		);
	});

	it('`£` by the domain of the URL it was read from: EGP on .com.eg, GBP on .co.uk and .com, and says why', () => {
		const pound = '<p class="price">£ 150</p>';
		expect(read('<html lang="en">', pound, 'https://www.shop.example.com.eg/products/trail-sandal')).toMatchObject({ price: 150, currency: 'EGP' });
		expect(read('<html lang="en">', pound, 'https://www.shop.example.co.uk/products/trail-sandal')).toMatchObject({ price: 150, currency: 'GBP' });
		expect(read('<html lang="en">', pound, 'https://www.shop.example.com/products/trail-sandal')).toMatchObject({ price: 150, currency: 'GBP' });
		expect(explainOffer(parseDocument(shop('<html lang="en">', pound)), { url: 'https://www.shop.example.com.eg/p/1' }).currency).toEqual({
			written: '£',
			code: 'EGP',
			why: 'the domain .eg',
		});
		expect(explainOffer(parseDocument(shop('<html lang="en">', pound)), { url: 'https://www.shop.example.com/p/1' }).currency).toEqual({
			written: '£',
			code: 'GBP',
			why: '£ on a page that names no other pound',
		});
	});

	it('from the domain, for a price that writes no currency at all', () => {
		const bare = '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Trail Sandal</span><span itemprop="price">2399,00</span></div>';
		expect(read('<html lang="pl">', bare, 'https://sklep.example.pl/p/7133')).toMatchObject({ from: 'microdata', price: 2399, currency: 'PLN' });
	});
});
