import type { Offer, Product } from './types.js';

/**
 * What moved between two offers whose counted text differs: the price (or its currency)
 * first, then the availability; `new-body` when neither did (a line the offer's text
 * gained or lost, such as a price that appeared). A list price is not counted: one that
 * moves alone is no change (shops move a "was" price for a sale's look, the price asked is
 * what is watched).
 *
 * @example
 * offerMoved({ price: 24.5 }, { price: 21 }) // 'price'
 */
export const offerMoved = (before: Product, now: Product): 'price' | 'availability' | 'new-body' =>
	before.price !== now.price || before.currency !== now.currency ? 'price' : before.availability !== now.availability ? 'availability' : 'new-body';

/**
 * A verdict's product fields: the offer read (with `prices` when the page had several,
 * `price` being the URL's variant's or the lowest that can be had; `listPrice` when a
 * price was struck through beside it) and the offer counted at the check before, when there was one
 * (moved or not, so that a condition can always compare the two).
 *
 * @example
 * offerFields({ from: 'json-ld', price: 21, currency: 'EUR' }, { price: 24.5, currency: 'EUR' })
 * // { product: { price: 21, currency: 'EUR' }, previous: { price: 24.5, currency: 'EUR' } }
 */
export function offerFields(offer: Offer, before: Product | undefined): { product: Product & { prices?: number }; previous?: Product } {
	const product: Product & { prices?: number } = {};
	if (offer.price !== undefined) product.price = offer.price;
	if (offer.listPrice !== undefined) product.listPrice = offer.listPrice;
	if (offer.currency !== undefined) product.currency = offer.currency;
	if (offer.availability !== undefined) product.availability = offer.availability;
	if (offer.prices !== undefined) product.prices = offer.prices;
	return before ? { product, previous: before } : { product };
}

/**
 * An offer's change in words, for a feed entry or a message: what moved, before → after;
 * the offer alone at first sight.
 *
 * @example
 * offerChange({ price: 21, currency: 'EUR', availability: 'InStock' }, { price: 24.5, currency: 'EUR', availability: 'InStock' })
 * // 'price 24.5 EUR → 21 EUR, InStock'
 */
export function offerChange(product: Product, previous?: Product): string {
	const money = (offer: Product) => (offer.price === undefined ? 'no price' : `${offer.price}${offer.currency ? ` ${offer.currency}` : ''}`);
	const price = previous && (previous.price !== product.price || previous.currency !== product.currency) ? `price ${money(previous)} → ${money(product)}` : `price ${money(product)}`;
	const was = previous?.availability ?? 'unknown';
	const availability = previous && previous.availability !== product.availability ? `${was} → ${product.availability ?? 'unknown'}` : product.availability;
	return availability === undefined ? price : `${price}, ${availability}`;
}
