import { describe, expect, it } from 'vitest';
import { parsePrice, priceNumber } from '../../../src/domain/product/price.js';

const NBSP = '\u00a0';
const NARROW_NBSP = '\u202f';

describe('parsePrice', () => {
	it('reads the examples of issue 28: words around the price, and "Free"', () => {
		expect(parsePrice('Beginning at 1 099,00 € tax incl.')).toEqual({ amount: 1099, currency: 'EUR' });
		expect(parsePrice('Now only $19.99!')).toEqual({ amount: 19.99, currency: '$' });
		expect(parsePrice('Free')).toEqual({ amount: 0 });
		expect(parsePrice('Gratis!')).toEqual({ amount: 0 });
	});

	it.each([
		['1,234.56', 1234.56],
		['1.234,56', 1234.56],
		['1 234,56', 1234.56],
		[`1${NBSP}234,56`, 1234.56],
		[`1${NARROW_NBSP}234,56`, 1234.56],
		["1'234.56", 1234.56],
		['1’234.56', 1234.56],
		['1234,-', 1234],
		['1.899,-', 1899],
		['105. –', 105],
		['1,23,456.00', 123456],
		['12,34,56,789', 123456789],
		['1.234.567,89', 1234567.89],
		['$1,234,567.89', 1234567.89],
		['1.727', 1727],
		['73,460', 73460],
		['0.750', 0.75],
		['29.1583', 29.1583],
		['.75', 0.75],
		['119. 95', 119.95],
		['1.837, 32 €', 1837.32],
		['35€99', 35.99],
		['8 000 000', 8000000],
	])('reads the separators of %j as %d', (text, amount) => {
		expect(parsePrice(text)?.amount).toBe(amount);
	});

	it.each([
		['12,-€', 12, 'EUR'],
		['€ 2.109,00', 2109, 'EUR'],
		['US$ 12.99', 12.99, 'USD'],
		['US$:12.99', 12.99, 'USD'],
		['EUR 6,99', 6.99, 'EUR'],
		['17 940,00 руб', 17940, 'RUB'],
		['171900 руб.', 171900, 'RUB'],
		['2 069 рублей', 2069, 'RUB'],
		['45,00 zł', 45, 'PLN'],
		['Pris från 172 kr', 172, 'kr'],
		['R$ 1.500,00', 1500, 'BRL'],
		['¥3,800', 3800, '¥'],
		// A pound of several countries: the page's signals name which (currency-signals.ts).
		['£ 34.99', 34.99, '£'],
		['34,99 ￡', 34.99, '￡'],
		['34.99 GBP', 34.99, 'GBP'],
		["CHF 1'049,95", 1049.95, 'CHF'],
		['₹ 4,649', 4649, 'INR'],
		['Běžná cena 9 800 Kč', 9800, 'CZK'],
		['3,990 Ft', 3990, 'HUF'],
		['140,00 pln', 140, 'PLN'],
		['C$5.95', 5.95, 'CAD'],
		['RM50', 50, 'MYR'],
		['12,000원', 12000, 'KRW'],
		['200.000 đ', 200000, 'VND'],
		['Rp 1.550.000', 1550000, 'IDR'],
	])('reads %j as %d %s', (text, amount, currency) => {
		expect(parsePrice(text)).toEqual({ amount, currency });
	});

	it('prefers a currency code to the symbol beside it, and a symbol naming one currency to an ambiguous one', () => {
		expect(parsePrice('$1,190.00 AUD')).toEqual({ amount: 1190, currency: 'AUD' });
		expect(parsePrice('NZD $100.70')).toEqual({ amount: 100.7, currency: 'NZD' });
		expect(parsePrice('SGD4.90 $')).toEqual({ amount: 4.9, currency: 'SGD' });
	});

	it('reads underscores between digit groups as a thousands separator, never dropping the digits before them', () => {
		expect(parsePrice('1_999.01€')).toEqual({ amount: 1999.01, currency: 'EUR' });
		expect(parsePrice('992_991_999.01€')).toEqual({ amount: 992991999.01, currency: 'EUR' });
		expect(parsePrice('1_999€')).toEqual({ amount: 1999, currency: 'EUR' });
	});

	it('takes the first number a currency is written next to, else the first number', () => {
		expect(parsePrice('3 Ausgaben für nur 14,85 EUR')).toEqual({ amount: 14.85, currency: 'EUR' });
		expect(parsePrice('2 Piece - $6.75')).toEqual({ amount: 6.75, currency: '$' });
		expect(parsePrice('Was: $124.95 Now: $99.00')).toEqual({ amount: 124.95, currency: '$' });
		expect(parsePrice('From 26 to 50 €')).toEqual({ amount: 26, currency: 'EUR' });
		expect(parsePrice('129,00 € (-15%)')).toEqual({ amount: 129, currency: 'EUR' });
		expect(parsePrice('34.12 (40.94 inc VAT)')).toEqual({ amount: 34.12 });
	});

	it('reads three decimals for the currencies quoted so (KWD, OMR, …)', () => {
		expect(parsePrice('1.500 KD')).toEqual({ amount: 1.5, currency: 'KWD' });
		expect(parsePrice('1.500 €')).toEqual({ amount: 1500, currency: 'EUR' });
	});

	it('takes the currency from the hint when the text names none, and the decimal separator when given', () => {
		expect(parsePrice('17,95', { currency: 'DKK' })).toEqual({ amount: 17.95, currency: 'DKK' });
		expect(parsePrice('899,00', { currency: 'Pris NOK 1 999,00' })).toEqual({ amount: 899, currency: 'NOK' });
		expect(parsePrice('3,20 €', { currency: '$' })).toEqual({ amount: 3.2, currency: 'EUR' });
		expect(parsePrice('140.000', { decimal: '.' })?.amount).toBe(140);
		expect(parsePrice('140.000', { decimal: ',' })?.amount).toBe(140000);
	});

	it.each(['', 'Out of stock', 'Sold out', 'Type of Transfer *', '40% OFF', 'FREE shipping', 'Pure & IP BP Ph. Eur. USP', '15.08.2017', 'EUR'])(
		'finds no price in %j',
		(text) => {
			expect(parsePrice(text)).toBeUndefined();
		},
	);

	it('does not read a currency inside a word', () => {
		expect(parsePrice('Kraft 150')).toEqual({ amount: 150 });
		expect(parsePrice('16.00 ft')).toEqual({ amount: 16 });
		expect(parsePrice('571.12坪')).toEqual({ amount: 571.12 });
	});
});

describe('priceNumber', () => {
	it('takes numbers and schema.org decimal strings as they are', () => {
		expect(priceNumber(2879.2)).toBe(2879.2);
		expect(priceNumber('2879.20')).toBe(2879.2);
		expect(priceNumber(' 1.500 ')).toBe(1.5);
		expect(priceNumber('0')).toBe(0);
	});

	it('reads other strings as shops write them, and gives undefined for no price', () => {
		expect(priceNumber('1.299,00')).toBe(1299);
		expect(priceNumber('€ 12')).toBe(12);
		expect(priceNumber('1,299')).toBe(1299);
		expect(priceNumber('n/a')).toBeUndefined();
		expect(priceNumber(Number.NaN)).toBeUndefined();
		expect(priceNumber(-5)).toBeUndefined();
		expect(priceNumber(null)).toBeUndefined();
	});
});

describe('parsePrice and the sign', () => {
	it('reads a minus sign before the number, or before its currency, as negative; a dash after a digit or a letter is not one', () => {
		expect(parsePrice('-5')).toEqual({ amount: -5 });
		expect(parsePrice('−5 €')).toEqual({ amount: -5, currency: 'EUR' });
		expect(parsePrice('-€5')).toEqual({ amount: -5, currency: 'EUR' });
		expect(parsePrice('€ -1,500.00')).toEqual({ amount: -1500, currency: 'EUR' });
		expect(parsePrice('Price: -12,50 EUR')).toEqual({ amount: -12.5, currency: 'EUR' });
		expect(parsePrice('10-20 €')).toEqual({ amount: 10, currency: 'EUR' });
		expect(parsePrice('Model X-5')).toEqual({ amount: 5 });
		// A dash set apart by a space is a separator as often as a sign: not read as one.
		expect(parsePrice('Sale - 5 €')).toEqual({ amount: 5, currency: 'EUR' });
		expect(priceNumber('-5')).toBeUndefined();
	});
});
