import type { AnyNode } from 'domhandler';
import { isIsoCode } from './currencies.js';
import { currencyNamed, pageCurrencySignals, type CurrencySignals } from './currency-signals.js';
import type { Found } from './found.js';
import { jsonLdFound } from './json-ld.js';
import { pageFacts, scanMarkup, type Markup } from './markup.js';
import { microdataFound } from './microdata.js';
import { openGraphFound } from './opengraph.js';
import { rdfaFound } from './rdfa.js';
import { pageFound } from './page/found.js';
import { selectorFound, type OfferOptions } from './selectors.js';
import { type Candidate, type Choice, isVariant, thisProduct, variantOf } from './this-product.js';
import type { Availability, Offer, OfferSource } from '../../store/model/product.js';

/** The markups in the order they are believed: the structured ones first, the selectors last. */
const ORDER: readonly OfferSource[] = ['json-ld', 'microdata', 'rdfa', 'opengraph', 'selector', 'page'];

/** The states in which the product can be had now. */
const BUYABLE = new Set<Availability>(['InStock', 'LimitedAvailability', 'OnlineOnly', 'InStoreOnly']);

/** What `explainOffer` gives: the offer, everything each markup said, in the order tried, and what was wrong with it. */
export interface Explained {
	offer: Offer | undefined;
	/** Every offer each markup gave, other products' included (their `product` says whose). */
	found: Found[];
	/**
	 * What was not read and why, each with where: `script #1: nested deeper than 64
	 * levels, read no deeper`, `json-ld script #2 Offer: negative price -5 refused`.
	 */
	problems: string[];
	/** The products the markups name, each taken as this page's or not, and why. */
	products: Choice[];
	/**
	 * Price-looking elements of the page not taken, and why (`span.price "$4.99": in a block of other products (div.related)`), when the page itself was read.
	 */
	passed: string[];
	/** Where the offer's currency was named by the page rather than written with its price: `$` read as USD, and why. */
	currency?: { written?: string; code: string; why: string };
}

/**
 * A product page's offer, read from its markup (a document from htmlparser2's
 * `parseDocument`); undefined when the page states neither a price nor an availability.
 *
 * - **Which product.** A page shows other products beside its own (related, similar,
 *   recently viewed), often with markup of their own. Of the products each markup names,
 *   the page's is chosen first (`thisProduct`): never one in a list or linked as related;
 *   of the others, the one whose `url` is the page's, whose name is its title, whose
 *   element holds its `<h1>` or add-to-cart form. Only that product's offers are read, and
 *   those that name no product.
 * - **Where from.** JSON-LD, then microdata, then RDFa, then Open Graph, then the `price`
 *   and `availability` selectors. The first of these that gives a price gives the price
 *   and the currency (and `from`); the first that gives an availability gives the
 *   availability. The two are chosen apart because shops often state only one of them in a
 *   given markup (a JSON-LD price with the stock level only in microdata). Selectors are
 *   the fallback: they are read only for what no structured data gives; then, where none of
 *   these gave a price and no `price` selector was given, the page itself (page/found.ts),
 *   since a shop's
 *   structured data is written for machines and its page text is not.
 * - **Several prices** (variants, sellers). Within that one markup, the same number written
 *   two ways is one price, and `prices` says how many different ones there were. The price
 *   is the variant's the page's URL names (`options.url` with Shopify's `?variant=123`),
 *   else the lowest of those that can be had now (`InStock`, `LimitedAvailability`,
 *   `OnlineOnly`, `InStoreOnly`, or not said), else the lowest. Offers in a currency other
 *   than the first one named are left out: the same price in two currencies is not two prices.
 * - **Availability**: the named variant's, else the first that can be had now, else the
 *   first. A product is in stock when any of its offers can be bought, and a restock of one
 *   variant is what a watcher wants to hear of.
 * - **List price**: the price struck through beside the price (`<del>`, a `ListPrice`
 *   specification, "Was $59.99"), as `listPrice`, where it is above the price.
 *
 * @example
 * readOffer(parseDocument(html)) // { from: 'json-ld', price: 19.99, currency: 'EUR', availability: 'InStock' }
 * readOffer(parseDocument(html), { price: ['.price'] }) // the selector when the page has no price in its markup
 * readOffer(parseDocument(html), { url: 'https://shop.example/products/hat?variant=42' }) // variant 42's price
 * readOffer(document, {}, markup) // with the markup `parseWithMarkup` found as it parsed, not walked again
 */
export function readOffer(document: AnyNode, options: OfferOptions = {}, markup: Markup = scanMarkup(document)): Offer | undefined {
	const { kept: found, signals } = structuredFound(markup, options.url);
	const selectors: OfferOptions = {};
	if (options.price !== undefined && !found.some((item) => item.price !== undefined)) selectors.price = options.price;
	if (options.availability !== undefined && !found.some((item) => item.availability !== undefined)) selectors.availability = options.availability;
	if (selectors.price !== undefined || selectors.availability !== undefined) found.push(...selectorFound(document, selectors));
	found.push(...fromPage(document, found, options));
	return withCurrency(offerOf(found, variantOf(options.url)), signals);
}

/**
 * The offer with its currency named by the page's signals where its price wrote a shared
 * symbol or word (`$`, `kr`, "pounds") or none (`currencyNamed`); `named` gets what was
 * written and why. A currency is a code: one written that no signal names a code for
 * (`kr` on a `.com` page in English) is dropped, and `refused` says why.
 */
function withCurrency(offer: Offer | undefined, signals: CurrencySignals, explained?: Explained): Offer | undefined {
	if (offer?.price === undefined) return offer;
	const decided = currencyNamed(offer.currency, signals);
	if (decided !== undefined) {
		if (explained) explained.currency = { ...(offer.currency !== undefined ? { written: offer.currency } : {}), ...decided };
		offer.currency = decided.code;
	} else if (offer.currency !== undefined && !isIsoCode(offer.currency)) {
		explained?.problems.push(
			`the currency ${JSON.stringify(offer.currency)}: no ISO 4217 code, and the page names none it stands for (a stated code, its domain, ` +
				`its language): not read`,
		);
		delete offer.currency;
	}
	return offer;
}

/**
 * The page itself, read last (see page/found.ts): for the price and availability where no
 * markup and no `--price` selector gave a price; for the availability alone where they gave
 * a price and nothing gave an availability (a shop's JSON-LD with no `availability`, its
 * "5 in stock" and add-to-cart button in the page).
 */
function fromPage(document: AnyNode, found: readonly Found[], options: OfferOptions, passed?: string[]): Found[] {
	const priced = found.some((item) => item.price !== undefined);
	if (options.price === undefined && !priced) return pageFound(document, passed);
	// A --price selector that matched nothing leaves no offer (the page says selector-gone), not an availability alone.
	if (!priced || options.availability !== undefined || found.some((item) => item.availability !== undefined)) return [];
	return pageFound(document, undefined, false);
}

/**
 * The offer and what each markup gave, selectors included even where structured data won,
 * for `revisit rules test URL --product` to show what was read and from where.
 *
 * @example
 * explainOffer(parseDocument(html)).found
 * // [{ from: 'json-ld', where: 'script #2 Product.offers[0]', price: 19.99, written: { price: '19.99' }, … }, …]
 */
export function explainOffer(document: AnyNode, options: OfferOptions = {}, markup: Markup = scanMarkup(document)): Explained {
	const problems: string[] = [];
	const passed: string[] = [];
	const { all, kept, choices, signals } = structuredFound(markup, options.url, problems);
	const selected = selectorFound(document, options);
	const found = [...all, ...selected];
	const page = fromPage(document, [...kept, ...selected], options, passed);
	found.push(...page);
	problems.push(
		...found.flatMap((item) =>
			[item.problem, item.currencyProblem].filter((problem) => problem !== undefined).map((problem) => `${item.from} ${item.where}: ${problem}`),
		),
	);
	const explained: Explained = { offer: undefined, found, problems, products: choices, passed };
	explained.offer = withCurrency(offerOf([...kept, ...selected, ...page], variantOf(options.url)), signals, explained);
	return explained;
}

function structuredFound(
	markup: Markup,
	url: string | undefined,
	problems: string[] = [],
): { all: Found[]; kept: Found[]; choices: Choice[]; signals: CurrencySignals } {
	const candidates: Candidate[] = [];
	const all = [
		...jsonLdFound(markup.jsonLd, problems, candidates),
		...microdataFound(markup.itemprops, candidates, markup.itemscopes),
		...rdfaFound(markup.properties, candidates, markup.typeofs),
		...openGraphFound(markup.metas),
	];
	const { kept, choices } = thisProduct(candidates, all, pageFacts(markup, url));
	return { all, kept, choices, signals: pageCurrencySignals(markup, kept, url) };
}

/**
 * The offer that a list of found offers (this page's product's) makes, by the rules
 * `readOffer` states; `variant` is the one the page's URL names.
 *
 * @example
 * offerOf([{ from: 'json-ld', where: 'script #1 Offer', price: 5, written: {} }]) // { from: 'json-ld', price: 5 }
 */
export function offerOf(found: readonly Found[], variant?: string): Offer | undefined {
	const priced = firstSource(found, (item) => item.price !== undefined);
	const stocked = firstSource(found, (item) => item.availability !== undefined);
	if (!priced && !stocked) return undefined;
	const offer: Offer = { from: (priced ?? stocked)![0]!.from };
	const named = (items: Found[]) => (variant === undefined ? undefined : items.find((item) => isVariant(item, variant)));
	if (priced) {
		const currency =
			priced.find((item) => item.currency !== undefined)?.currency ?? found.find((item) => item.from === offer.from && item.currency !== undefined)?.currency;
		const same = priced.filter((item) => item.currency === undefined || item.currency === currency);
		const buyable = same.filter((item) => item.availability === undefined || BUYABLE.has(item.availability));
		const pick = named(same) ?? lowest(buyable.length > 0 ? buyable : same);
		offer.price = pick.price!;
		const listPrice = pick.listPrice ?? same.find((item) => item.price === pick.price && item.listPrice !== undefined)?.listPrice;
		if (listPrice !== undefined && listPrice > offer.price) offer.listPrice = listPrice;
		if (currency !== undefined) offer.currency = currency;
		const prices = new Set(same.map((item) => item.price!));
		if (prices.size > 1) offer.prices = prices.size;
	}
	if (stocked) offer.availability = (named(stocked) ?? stocked.find((item) => BUYABLE.has(item.availability!)) ?? stocked[0]!).availability!;
	return offer;
}

const lowest = (items: readonly Found[]): Found => items.reduce((low, item) => (item.price! < low.price! ? item : low));

/** The found offers of the first markup, in `ORDER`, that has one passing `test`: those offers only. */
function firstSource(found: readonly Found[], test: (item: Found) => boolean): Found[] | undefined {
	for (const source of ORDER) {
		const items = found.filter((item) => item.from === source && test(item));
		if (items.length > 0) return items;
	}
	return undefined;
}
