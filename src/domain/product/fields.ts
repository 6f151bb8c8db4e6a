import type { Offer, Product } from '../../store/model/product.js';

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
 * price was struck through beside it; `source`, where it was read from) and the offer counted at the check before, when there was one
 * (moved or not, so that a condition can always compare the two).
 *
 * @example
 * offerFields({ from: 'json-ld', price: 21, currency: 'EUR' }, { price: 24.5, currency: 'EUR' })
 * // { product: { price: 21, currency: 'EUR', source: 'json-ld' }, previous: { price: 24.5, currency: 'EUR' } }
 */
export function offerFields(offer: Offer, before: Product | undefined): { product: Product & { prices?: number }; previous?: Product } {
	const product: Product & { prices?: number } = {};
	if (offer.price !== undefined) product.price = offer.price;
	if (offer.listPrice !== undefined) product.listPrice = offer.listPrice;
	if (offer.currency !== undefined) product.currency = offer.currency;
	if (offer.availability !== undefined) product.availability = offer.availability;
	if (offer.prices !== undefined) product.prices = offer.prices;
	product.source = offer.from;
	return before ? { product, previous: before } : { product };
}

/**
 * An offer's move in words, one part for the price and one for the availability: what
 * moved, before → after, and what did not, as it is. The one wording of an offer's move
 * that every output uses: Atom entries and `revisit rules test` join the parts with commas
 * (`offerChange`), notifications put each on a line, and `revisit report` shows them as
 * the change's headline. A price is written as the verdict writes it (`24.5`), with its
 * currency after it.
 *
 * @example
 * offerMoves({ price: 21, currency: 'EUR', availability: 'InStock' }, { price: 24.5, currency: 'EUR', availability: 'InStock' })
 * // ['price 24.5 EUR → 21 EUR', 'availability InStock']
 */
export function offerMoves(product: Product, previous?: Product): string[] {
	const money = (offer: Product) => (offer.price === undefined ? 'no price' : `${offer.price}${offer.currency ? ` ${offer.currency}` : ''}`);
	const parts: string[] = [];
	if (product.price !== undefined || previous?.price !== undefined)
		parts.push(
			previous && (previous.price !== product.price || previous.currency !== product.currency)
				? `price ${money(previous)} → ${money(product)}`
				: `price ${money(product)}`,
		);
	if (product.availability !== undefined || previous?.availability !== undefined)
		parts.push(
			previous && previous.availability !== product.availability
				? `availability ${previous.availability ?? 'unknown'} → ${product.availability ?? 'unknown'}`
				: `availability ${product.availability}`,
		);
	return parts;
}

/**
 * An offer's move in one line (`offerMoves`, joined): for a feed entry, `rules test`, the report.
 *
 * @example
 * offerChange({ price: 21, currency: 'EUR', availability: 'InStock' }, { price: 24.5, currency: 'EUR', availability: 'InStock' })
 * // 'price 24.5 EUR → 21 EUR, availability InStock'
 */
export const offerChange = (product: Product, previous?: Product): string => offerMoves(product, previous).join(', ');
