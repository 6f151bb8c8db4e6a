import type { AnyNode } from 'domhandler';
import type { Found } from './found.js';
import { jsonLdFound } from './json-ld.js';
import { scanMarkup } from './markup.js';
import { microdataFound } from './microdata.js';
import { openGraphFound } from './opengraph.js';
import { pageFound } from './page/found.js';
import { selectorFound, type OfferOptions } from './selectors.js';
import type { Availability, Offer, OfferSource } from './types.js';

/** The markups in the order they are believed: the structured ones first, the selectors last. */
const ORDER: readonly OfferSource[] = ['json-ld', 'microdata', 'opengraph', 'selector', 'page'];

/** The states in which the product can be had now. */
const BUYABLE = new Set<Availability>(['InStock', 'LimitedAvailability', 'OnlineOnly', 'InStoreOnly']);

/** What `explainOffer` gives: the offer, everything each markup said, in the order tried, and what was wrong with it. */
export interface Explained {
	offer: Offer | undefined;
	found: Found[];
	/** What was not read and why, each with where: `script #1: nested deeper than 64 levels, read no deeper`, `json-ld script #2 Offer: negative price -5 refused`. */
	problems: string[];
	/** Price-looking elements of the page not taken, and why (`span.price "$4.99": in a block of other products (div.related)`), when the page itself was read. */
	passed: string[];
}

/**
 * A product page's offer, read from its markup (a document from htmlparser2's
 * `parseDocument`); undefined when the page states neither a price nor an availability.
 *
 * - **Where from.** JSON-LD, then microdata, then Open Graph, then the `price` and
 *   `availability` selectors, then, where none of these gave a price and no `price`
 *   selector was given, the page itself (page/found.ts). The first of these that gives a price gives the price and the
 *   currency (and `from`); the first that gives an availability gives the availability. The
 *   two are chosen apart because shops often state only one of them in a given markup (a
 *   JSON-LD price with the stock level only in microdata). Selectors are the fallback: they
 *   are read only for what no structured data gives, as the issue has it, since a shop's
 *   structured data is written for machines and its page text is not.
 * - **Several prices.** Within that one markup, the same number written two ways is one
 *   price; different prices give the lowest, and `prices` says how many there were.
 *   Offers in a currency other than the first one named are left out: the same price in
 *   two currencies is not two prices.
 * - **Several availabilities** (variants, sellers): the first that can be had now (`InStock`,
 *   `LimitedAvailability`, `OnlineOnly`, `InStoreOnly`), else the first. A product is in
 *   stock when any of its offers can be bought, and a restock of one variant is what a
 *   watcher wants to hear of.
 *
 * @example
 * readOffer(parseDocument(html)) // { from: 'json-ld', price: 19.99, currency: 'EUR', availability: 'InStock' }
 * readOffer(parseDocument(html), { price: ['.price'] }) // the selector when the page has no price in its markup
 */
export function readOffer(document: AnyNode, options: OfferOptions = {}): Offer | undefined {
	const found = structuredFound(document);
	const selectors: OfferOptions = {};
	if (options.price !== undefined && !found.some((item) => item.price !== undefined)) selectors.price = options.price;
	if (options.availability !== undefined && !found.some((item) => item.availability !== undefined)) selectors.availability = options.availability;
	if (selectors.price !== undefined || selectors.availability !== undefined) found.push(...selectorFound(document, selectors));
	found.push(...fromPage(document, found, options));
	return offerOf(found);
}

/** The page itself, read last: only where no markup and no `--price` selector was given a price (see page/found.ts). */
const fromPage = (document: AnyNode, found: readonly Found[], options: OfferOptions, passed?: string[]): Found[] =>
	options.price === undefined && !found.some((item) => item.price !== undefined) ? pageFound(document, passed) : [];

/**
 * The offer and what each markup gave, selectors included even where structured data won,
 * for `revisit rules test URL --product` to show what was read and from where.
 *
 * @example
 * explainOffer(parseDocument(html)).found
 * // [{ from: 'json-ld', where: 'script #2 Product.offers[0]', price: 19.99, written: { price: '19.99' }, … }, …]
 */
export function explainOffer(document: AnyNode, options: OfferOptions = {}): Explained {
	const problems: string[] = [];
	const passed: string[] = [];
	const found = [...structuredFound(document, problems), ...selectorFound(document, options)];
	found.push(...fromPage(document, found, options, passed));
	problems.push(...found.filter((item) => item.problem !== undefined).map((item) => `${item.from} ${item.where}: ${item.problem}`));
	return { offer: offerOf(found), found, problems, passed };
}

function structuredFound(document: AnyNode, problems: string[] = []): Found[] {
	const markup = scanMarkup(document);
	return [...jsonLdFound(markup.jsonLd, problems), ...microdataFound(markup.itemprops), ...openGraphFound(markup.metas)];
}

/**
 * The offer that a list of found offers makes, by the rules `readOffer` states.
 *
 * @example
 * offerOf([{ from: 'json-ld', where: 'script #1 Offer', price: 5, written: {} }]) // { from: 'json-ld', price: 5 }
 */
export function offerOf(found: readonly Found[]): Offer | undefined {
	const priced = firstSource(found, (item) => item.price !== undefined);
	const stocked = firstSource(found, (item) => item.availability !== undefined);
	if (!priced && !stocked) return undefined;
	const offer: Offer = { from: (priced ?? stocked)![0]!.from };
	if (priced) {
		const currency = priced.find((item) => item.currency !== undefined)?.currency ?? found.find((item) => item.from === offer.from && item.currency !== undefined)?.currency;
		const prices = new Set(priced.filter((item) => item.currency === undefined || item.currency === currency).map((item) => item.price!));
		offer.price = Math.min(...prices);
		if (currency !== undefined) offer.currency = currency;
		if (prices.size > 1) offer.prices = prices.size;
	}
	if (stocked) offer.availability = (stocked.find((item) => BUYABLE.has(item.availability!)) ?? stocked[0]!).availability!;
	return offer;
}

/** The found offers of the first markup, in `ORDER`, that has one passing `test`: those offers only. */
function firstSource(found: readonly Found[], test: (item: Found) => boolean): Found[] | undefined {
	for (const source of ORDER) {
		const items = found.filter((item) => item.from === source && test(item));
		if (items.length > 0) return items;
	}
	return undefined;
}
