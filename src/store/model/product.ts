/**
 * The schema.org availability short names a product's availability is given as
 * (https://schema.org/ItemAvailability). Shop words ("Sold out", "oos", "Ausverkauft") are
 * mapped onto these (availability.ts).
 */
export const AVAILABILITIES = [
	'InStock',
	'OutOfStock',
	'PreOrder',
	'PreSale',
	'BackOrder',
	'Discontinued',
	'LimitedAvailability',
	'InStoreOnly',
	'OnlineOnly',
	'SoldOut',
	'MadeToOrder',
	'Reserved',
] as const;

export type Availability = (typeof AVAILABILITIES)[number];

/** What a product page offers, as a verdict and a record carry it. Fields not found are absent. */
export interface Product {
	/** The price asked, as a number (`2879.2`): the variant the URL names, else the lowest that can be had. */
	price?: number;
	/**
	 * The price struck through beside it, or stated as "was", list or recommended
	 * (`<del>$59.99</del>`, a `ListPrice` specification); only where it is above `price`.
	 * Not counted: a list price that moves alone is no change.
	 */
	listPrice?: number;
	/**
	 * ISO 4217 code, as the markup, the symbol or the page's own signals (its domain, its language) name it
	 * (`EUR`; `$` on a `.ca` page is `CAD`); absent where none names one (`kr` on a `.com` page in English).
	 */
	currency?: string;
	availability?: Availability;
	/** Where the offer was read from: `json-ld`, `microdata`, `opengraph`, `selector`, or `page` (the page's own price and buy button). */
	source?: OfferSource;
}

/** Where an offer was read from, in the order tried: `page` is the price and buy area the page shows, found without structured data or a selector. */
export type OfferSource = 'json-ld' | 'microdata' | 'rdfa' | 'opengraph' | 'selector' | 'page';

/** A product as read from one page, with where it came from. */
export interface Offer extends Product {
	/** The markup the price (else the availability) was read from. */
	from: OfferSource;
	/** This page's product had several different prices (variants, sellers): how many. */
	prices?: number;
}

/** A price read from text: the amount and, when the text names one, the currency. */
export interface ParsedPrice {
	amount: number;
	currency?: string;
}
