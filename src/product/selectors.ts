import { compile, selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { UsageError } from '../errors/index.js';
import { amountOf } from './amount.js';
import { availabilityOf } from './availability.js';
import type { Found } from './found.js';
import { valueOf } from './markup.js';
import { parsePrice } from './price.js';
import { priceRead } from './refused.js';

/** A CSS selector as written, or compiled once with its source (the content rules' `Selector` is one). */
export type OfferSelector = string | { source: string; test: ReturnType<typeof compile<AnyNode, Element>> };

/** Where to read a price and an availability from a page that has no structured data for them. */
export interface OfferOptions {
	price?: OfferSelector | readonly OfferSelector[] | undefined;
	availability?: OfferSelector | readonly OfferSelector[] | undefined;
}

/**
 * The price and the availability the selectors find, each as an offer of its own: of the
 * elements the selectors match, in page order, the first whose value (`content`, a link's
 * `href`, else its text) holds a price or says an availability. The first, not the lowest:
 * a selector that also matches the prices of "similar items" should be made narrower, and
 * the first match is the page's own far more often than the cheapest is.
 *
 * @example
 * selectorFound(document, { price: '.price' }) // [{ from: 'selector', where: 'selector .price', price: 19.99, … }]
 */
export function selectorFound(document: AnyNode, options: OfferOptions): Found[] {
	const found: Found[] = [];
	const price = first(document, options.price, (element, source) => {
		const { value, text } = valueOf(element);
		const { amount, problem } = priceRead(value, text ? (written: string) => parsePrice(written) : amountOf);
		// A refused price is the selector's answer all the same: the offer reads no price, and the problem says why.
		if (problem !== undefined) return { from: 'selector', where: `selector ${source}`, written: { price: value }, problem };
		if (!amount) return undefined;
		return { from: 'selector', where: `selector ${source}`, price: amount.amount, ...(amount.currency !== undefined ? { currency: amount.currency } : {}), written: { price: value } };
	});
	const availability = first(document, options.availability, (element, source) => {
		const { value } = valueOf(element);
		const name = availabilityOf(value);
		return name && { from: 'selector', where: `selector ${source}`, availability: name, written: { availability: value } };
	});
	if (price) found.push(price);
	if (availability) found.push(availability);
	return found;
}

function first(document: AnyNode, selectors: OfferOptions['price'], read: (element: Element, source: string) => Found | undefined): Found | undefined {
	if (selectors === undefined) return undefined;
	for (const selector of typeof selectors === 'string' || !Array.isArray(selectors) ? [selectors as OfferSelector] : (selectors as readonly OfferSelector[])) {
		const { source, test } = compiled(selector);
		for (const element of selectAll<AnyNode, Element>(test, document)) {
			const found = read(element, source);
			if (found) return found;
		}
	}
	return undefined;
}

function compiled(selector: OfferSelector): Exclude<OfferSelector, string> {
	if (typeof selector !== 'string') return selector;
	try {
		return { source: selector, test: compile<AnyNode, Element>(selector) };
	} catch (error) {
		throw new UsageError(`${JSON.stringify(selector)} is not a CSS selector: ${(error as Error).message}`);
	}
}
