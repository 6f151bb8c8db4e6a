import type { Element } from 'domhandler';
import type { Found } from './found.js';
import { itemsFound, type Syntax } from './items.js';
import type { Candidate } from './this-product.js';

/** Microdata: `itemscope`, `itemtype`, `itemprop` (a name in any case, with or without the schema.org URL). */
export const MICRODATA: Syntax = {
	from: 'microdata',
	noun: 'itemscope',
	properties: (element) =>
		(element.attribs['itemprop'] ?? '')
			.split(/\s+/)
			.filter(Boolean)
			.map((token) => token.replace(/^https?:\/\/(www\.)?schema\.org\//i, '').toLowerCase()),
	isItem: (element) => element.attribs['itemscope'] !== undefined,
	typeOf: (element) =>
		(element.attribs['itemtype'] ?? '')
			.trim()
			.split(/\s+/)[0]!
			.replace(/^.*[/:#]/, ''),
};

/**
 * The offers in a page's microdata, as `itemsFound` reads items: `price` (or `lowPrice`),
 * `priceCurrency` and `availability`, one offer per item, each with its product.
 *
 * @example
 * microdataFound(scanMarkup(document).itemprops)
 * // [{ from: 'microdata', where: 'itemscope #2 Offer', price: 121.95, currency: '$', … }]
 */
export function microdataFound(itemprops: readonly Element[], candidates: Candidate[] = [], scopes?: readonly Element[]): Found[] {
	return itemsFound(itemprops, MICRODATA, candidates, scopes);
}
