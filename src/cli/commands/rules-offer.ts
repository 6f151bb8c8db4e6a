import { parseDocument } from 'htmlparser2';
import type { Rule } from '../../content/rules.js';
import type { Found } from '../../product/found.js';
import { explainOffer } from '../../product/offer.js';
import { offerChange } from '../../product/fields.js';

/**
 * What `revisit rules test URL --product` says on stderr besides the counted offer: the
 * offer, then every offer each markup gave, in the order they are believed, with the
 * values as written and as read, so that a wrong price can be traced to its markup.
 *
 * @example
 * offerLines(rule, html) // ['the offer: price 49.9 EUR, InStock (from json-ld)', '  json-ld  script #1 Product.offers  price "49.90" → 49.9 …']
 */
export function offerLines(rule: Rule, html: string, url?: string): string[] {
	const { offer, found, problems, products } = explainOffer(parseDocument(html), { ...rule.product, url });
	const head = offer ? `the offer: ${offerChange(offer)} (price from ${offer.from}${offer.prices ? `, one of ${offer.prices} prices` : ''})` : 'no offer on this page: no structured data gives a price or an availability, and no --price or --availability selector matched';
	const lines = [head];
	if (found.length > 0) {
		const width = Math.max(...found.map((item) => item.from.length));
		// Another product's offer (a related product's) is shown as read, and said not to count.
		const whose = (item: Found) => {
			const choice = item.product && products.find((entry) => entry.candidate === item.product);
			return choice && !choice.taken ? `  (not this page's product: ${choice.why})` : '';
		};
		lines.push('read from the markup, in the order believed:', ...found.map((item) => `  ${item.from.padEnd(width)}  ${item.where}  ${fields(item)}${whose(item)}`));
	}
	if (problems.length > 0) lines.push('not read:', ...problems.map((problem) => `  ${problem}`));
	return lines;
}

function fields(item: Found): string {
	const parts: string[] = [];
	const shown = (name: string, written: string | undefined, read: unknown) => {
		if (written === undefined && read === undefined) return;
		const value = written === undefined ? String(read) : read === undefined ? `${JSON.stringify(written)} (not read)` : String(read) === written ? written : `${JSON.stringify(written)} → ${String(read)}`;
		parts.push(`${name} ${value}`);
	};
	shown('price', item.written.price, item.price);
	shown('currency', item.written.currency, item.currency);
	shown('availability', item.written.availability, item.availability);
	return parts.join(', ');
}
