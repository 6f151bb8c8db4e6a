import type { Found } from '../../domain/product/found.js';
import type { Explained } from '../../domain/product/offer.js';
import { offerChange } from '../../domain/product/fields.js';
import type { OfferOptions } from '../../domain/product/selectors.js';
import type { Offer } from '../../store/model/product.js';

/**
 * What `revisit rules test URL --product` says on stderr besides the counted offer: the
 * offer the sweep reads (`offer`, from the page as counted: excluded elements gone, the
 * rule's selectors applied), then every offer each markup gave, in the order they are
 * believed, with the values as written and as read and whether each was taken and why,
 * then how the page named a currency its price wrote as `$` or not at all, then the price-looking elements of the page not taken and why, so that a wrong price
 * can be traced to its markup.
 *
 * @example
 * offerLines(counted.offer, counted.explained!, rule.product)
 * // ['the offer: price 49.9 EUR, availability InStock (price from json-ld)', 'read from the markup, in the order believed:',
 * //  '  json-ld  script #1 Product.offers  price "49.90" → 49.9 …  taken: the price, the availability']
 */
export function offerLines(offer: Offer | undefined, explained: Explained, options: OfferOptions = {}): string[] {
	const { found, problems, passed, products } = explained;
	// The page itself is searched only where no --price selector was given: the user said where the price is.
	const page = options.price === undefined ? ', and no price shows near a title or buy button' : ', and the page is not searched behind a --price selector';
	const head = offer
		? `the offer: ${offerChange(offer)} (${offer.price !== undefined ? 'price' : 'availability'} from ` +
			`${offer.from}${offer.prices ? `, one of ${offer.prices} prices` : ''})`
		: `no offer on this page: no structured data gives a price or an availability, no --price or --availability selector matched${page}`;
	const lines = [head];
	const named = explained.currency;
	if (named) lines.push(`the currency: ${named.written === undefined ? 'none written' : `"${named.written}"`}, read as ${named.code}: ${named.why}`);
	if (found.length > 0) {
		const width = Math.max(...found.map((item) => item.from.length));
		// Another product's offer (a related product's) is shown as read, and said not to count.
		const whose = (item: Found): string | undefined => {
			const choice = item.product && products.find((entry) => entry.candidate === item.product);
			return choice && !choice.taken ? `not taken: not this page's product: ${choice.why}` : undefined;
		};
		lines.push(
			'read from the markup, in the order believed:',
			...found.map((item) => `  ${item.from.padEnd(width)}  ${item.where}  ${fields(item)}  ${whose(item) ?? taken(item, offer, found, named?.written)}`),
		);
	}
	if (passed.length > 0) lines.push('not taken on the page:', ...passed.map((line) => `  ${line}`));
	if (problems.length > 0) lines.push('not read:', ...problems.map((problem) => `  ${problem}`));
	return lines;
}

/** Whether the offer took what `item` gave, and why (not). */
function taken(item: Found, offer: Offer | undefined, found: readonly Found[], written?: string): string {
	const took: string[] = [];
	const left: string[] = [];
	const priceFrom = offer?.price !== undefined ? offer.from : undefined;
	if (item.price !== undefined) {
		if (priceFrom !== item.from) left.push(priceFrom ? `its price: the price is ${priceFrom}'s, believed first` : 'its price');
		else if (offer!.currency !== undefined && item.currency !== undefined && item.currency !== offer!.currency && item.currency !== written)
			left.push(`its price: in ${item.currency}, not ${offer!.currency}`);
		else if (item.price === offer!.price) took.push('the price');
		else left.push(`its price: the offer's is ${offer!.price} (the URL's variant, else the lowest that can be had)`);
	}
	// The availability comes from the first markup that gives one (offerOf): any of its offers that can be had, else its first.
	const stockFrom = found.find((other) => other.availability !== undefined)?.from;
	if (item.availability !== undefined) {
		if (stockFrom !== item.from) left.push(`its availability: ${stockFrom}'s is believed first`);
		else if (item.availability === offer?.availability) took.push('the availability');
		else left.push(`its availability: another offer of ${stockFrom} says ${offer?.availability}`);
	}
	if (took.length === 0 && left.length === 0) return '';
	return [took.length > 0 ? `taken: ${took.join(', ')}` : '', left.length > 0 ? `not taken: ${left.join('; ')}` : ''].filter(Boolean).join('; ');
}

function fields(item: Found): string {
	const parts: string[] = [];
	const shown = (name: string, written: string | undefined, read: unknown) => {
		if (written === undefined && read === undefined) return;
		const value =
			written === undefined
				? String(read)
				: read === undefined
					? `${JSON.stringify(written)} (not read)`
					: String(read) === written
						? written
						: `${JSON.stringify(written)} → ${String(read)}`;
		parts.push(`${name} ${value}`);
	};
	shown('price', item.written.price, item.price);
	shown('currency', item.written.currency, item.currency);
	shown('availability', item.written.availability, item.availability);
	return parts.join(', ');
}
