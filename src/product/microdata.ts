import type { Element } from 'domhandler';
import { amountOf } from './amount.js';
import { availabilityOf } from './availability.js';
import { currencyOf, type Found } from './found.js';
import { valueOf } from './markup.js';
import { parsePrice } from './price.js';
import { priceRead } from './refused.js';

type Property = 'price' | 'currency' | 'availability';

/** Microdata property names (any case, with or without the schema.org URL) to what they give. */
const PROPERTIES: Record<string, Property> = { price: 'price', lowprice: 'price', pricecurrency: 'currency', availability: 'availability' };

/**
 * The offers in a page's microdata: the `price` (or `lowPrice`), `priceCurrency` and
 * `availability` properties, one offer per item scope that holds them, in page order.
 * A value is read from `content`, a link's `href`, or else the element's text, which goes
 * through `parsePrice` (`$121.95`). Of a property written twice in one item, the first counts.
 *
 * @example
 * microdataFound(scanMarkup(document).itemprops)
 * // [{ from: 'microdata', where: 'itemscope #1 Offer', price: 121.95, currency: '$', … }]
 */
export function microdataFound(itemprops: readonly Element[]): Found[] {
	const items = new Map<Element | null, Found>();
	for (const element of itemprops) {
		for (const token of (element.attribs['itemprop'] ?? '').split(/\s+/)) {
			const property = PROPERTIES[token.replace(/^https?:\/\/(www\.)?schema\.org\//i, '').toLowerCase()];
			if (!property) continue;
			const scope = scopeOf(element);
			let item = items.get(scope);
			if (!item) items.set(scope, (item = { from: 'microdata', where: describe(scope, items.size + 1), written: {} }));
			read(item, property, element);
		}
	}
	// An item with only a currency stays: a page may name it in an item of its own.
	return [...items.values()].filter((item) => item.price !== undefined || item.availability !== undefined || item.currency !== undefined || item.problem !== undefined);
}

function read(item: Found, property: Property, element: Element): void {
	if (item.written[property] !== undefined) return;
	const { value, text } = valueOf(element);
	if (property === 'price') {
		const { amount, problem } = priceRead(value, text ? (written: string) => parsePrice(written) : amountOf);
		if (problem !== undefined) {
			// Refused, and the item's first price all the same: the offer reads no price from it.
			item.written.price = value;
			item.problem = problem;
			return;
		}
		if (!amount) return;
		item.price = amount.amount;
		item.written.price = value;
		if (amount.currency !== undefined && item.currency === undefined) item.currency = amount.currency;
	} else if (property === 'currency') {
		const currency = currencyOf(value);
		if (currency === undefined) return;
		// The property names it better than a symbol in the price's text.
		item.currency = currency;
		item.written.currency = value;
	} else {
		const availability = availabilityOf(value);
		if (availability === undefined) return;
		item.availability = availability;
		item.written.availability = value;
	}
}

/** The item an element's property belongs to: its nearest ancestor with `itemscope`, or none. */
function scopeOf(element: Element): Element | null {
	for (let parent = element.parent; parent; parent = parent.parent) {
		if (parent.type === 'tag' && (parent as Element).attribs['itemscope'] !== undefined) return parent as Element;
	}
	return null;
}

const describe = (scope: Element | null, n: number): string => {
	if (!scope) return 'itemprop outside any itemscope';
	const type = (scope.attribs['itemtype'] ?? '').trim().replace(/^.*[/:#]/, '');
	return `itemscope #${n}${type ? ` ${type}` : ''}`;
};
