import { compile, selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { UsageError } from '../../base/errors/index.js';
import { availabilityOf } from './availability.js';
import type { Found } from './found.js';
import { valueOf } from './markup.js';
import { shownPrice } from './was-now.js';

/** A CSS selector as written, or compiled once with its source (the content rules' `Selector` is one). */
export type OfferSelector = string | { source: string; test: ReturnType<typeof compile<AnyNode, Element>> };

/** Where to read a price and an availability from a page that has no structured data for them, and the page's URL. */
export interface OfferOptions {
	price?: OfferSelector | readonly OfferSelector[] | undefined;
	availability?: OfferSelector | readonly OfferSelector[] | undefined;
	/** The URL the page was fetched from: it may name a variant (`?variant=123`), and a product's `url` may be it. */
	url?: string | undefined;
}

/**
 * The price and the availability the selectors find, each as an offer of its own: of the
 * elements the selectors match, in page order, the first whose value (`content`, a link's
 * `href`, else its text) holds a price or says an availability. The first, not the lowest:
 * a selector that also matches the prices of "similar items" should be made narrower, and
 * the first match is the page's own far more often than the cheapest is. A price struck
 * through (`<del>`, `<s>`, an `old-price`, "Was $59.99") is the list price, not the price:
 * a selector that matches both the old price and the new reads the new one.
 *
 * @example
 * selectorFound(document, { price: '.price' }) // [{ from: 'selector', where: 'selector .price', price: 19.99, … }]
 */
export function selectorFound(document: AnyNode, options: OfferOptions): Found[] {
	const found: Found[] = [];
	const price = priceFound(document, options.price);
	const availability = first(document, options.availability, (element, source) => {
		const { value } = valueOf(element);
		const name = availabilityOf(value);
		return name && { from: 'selector', where: `selector ${source}`, availability: name, written: { availability: value } };
	});
	if (price) found.push(price);
	if (availability) found.push(availability);
	return found;
}

function priceFound(document: AnyNode, selectors: OfferOptions['price']): Found | undefined {
	let now: Found | undefined;
	let list: { amount: number; currency?: string | undefined; source: string; written: string; struck?: 'tag' | 'class' | undefined } | undefined;
	each(document, selectors, (element, source) => {
		const shown = shownPrice(element, null);
		const written = valueOf(element).value;
		// Struck by its tag (`<s>`, `<del>`) is surer than by a class: a theme may call its price "regular" (`price__regular`).
		if (shown.listPrice && (!list || (shown.struck === 'tag' && list.struck !== 'tag'))) list = { ...shown.listPrice, source, written, struck: shown.struck };
		// A refused price is the selector's answer all the same: the offer reads no price, and the problem says why.
		if (shown.problem !== undefined) now ??= { from: 'selector', where: `selector ${source}`, written: { price: written }, problem: shown.problem };
		else if (shown.price)
			now ??= {
				from: 'selector',
				where: `selector ${source}`,
				price: shown.price.amount,
				...(shown.price.currency !== undefined ? { currency: shown.price.currency } : {}),
				written: { price: written },
			};
		return now !== undefined && list?.struck === 'tag';
	});
	if (!now && list)
		return {
			from: 'selector',
			where: `selector ${list.source}`,
			price: list.amount,
			...(list.currency !== undefined ? { currency: list.currency } : {}),
			written: { price: list.written },
		};
	if (now && list && now.price !== undefined) now.listPrice = list.amount;
	return now;
}

/** Calls `visit` on each element the selectors match, in their order, until it says it is done. */
function each(document: AnyNode, selectors: OfferOptions['price'], visit: (element: Element, source: string) => boolean): void {
	if (selectors === undefined) return;
	for (const selector of typeof selectors === 'string' || !Array.isArray(selectors) ? [selectors as OfferSelector] : (selectors as readonly OfferSelector[])) {
		const { source, test } = compiled(selector);
		for (const element of selectAll<AnyNode, Element>(test, document)) if (visit(element, source)) return;
	}
}

function first(document: AnyNode, selectors: OfferOptions['price'], read: (element: Element, source: string) => Found | undefined): Found | undefined {
	let found: Found | undefined;
	each(document, selectors, (element, source) => (found = read(element, source)) !== undefined);
	return found;
}

function compiled(selector: OfferSelector): Exclude<OfferSelector, string> {
	if (typeof selector !== 'string') return selector;
	try {
		return { source: selector, test: compile<AnyNode, Element>(selector) };
	} catch (error) {
		throw new UsageError(`${JSON.stringify(selector)} is not a CSS selector: ${(error as Error).message}`);
	}
}
