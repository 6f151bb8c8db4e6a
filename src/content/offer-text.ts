import type { Document } from 'domhandler';
import { readOffer } from '../product/offer.js';
import type { Offer } from '../product/types.js';
import type { Rule } from './rules.js';

/**
 * A page's offer as counted text: one line each for the price (with its currency) and
 * the availability, so that the hash moves only when they do, and a diff reads
 * `price: 24.5 EUR` → `price: 21 EUR`.
 *
 * @example
 * offerText({ from: 'json-ld', price: 21, currency: 'EUR', availability: 'InStock' }) // 'price: 21 EUR\navailability: InStock'
 */
export function offerText(offer: Offer | undefined): string {
	if (!offer) return '';
	const lines: string[] = [];
	if (offer.price !== undefined) lines.push(`price: ${offer.price}${offer.currency ? ` ${offer.currency}` : ''}`);
	if (offer.availability !== undefined) lines.push(`availability: ${offer.availability}`);
	return lines.join('\n');
}

/**
 * The offer of a parsed page under a product rule: its structured data first, the rule's
 * `price` and `availability` selectors where that gives nothing (see product/offer.ts).
 *
 * @example
 * pageOffer(parseDocument(html), { price: compiled('.cost') })
 */
export function pageOffer(document: Document, product: NonNullable<Rule['product']>): Offer | undefined {
	return readOffer(document, product);
}
