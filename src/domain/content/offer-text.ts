import type { Offer } from '../../store/model/product.js';

/**
 * A page's offer as counted text: one line each for the price (with its currency) and
 * the availability, so that the hash moves only when they do, and a diff reads
 * `price: 24.5 EUR` → `price: 21 EUR`. The list price is not counted: one that moves
 * alone (a "was" price raised for the look of a bigger cut) is no change.
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
