import type { Element } from 'domhandler';
import { amountOf } from './amount.js';
import { priceRead } from './refused.js';
import { availabilityOf } from './availability.js';
import { currencyRead, type Found } from './found.js';

/**
 * The meta properties of each field, the Open Graph product ones first, then the `og:` ones
 * shops also write, then the bare `product:price` and `og:price` some write with text
 * ("30,000원~"). Facebook's catalogue's `product:sale_price:amount`, where there is one, is
 * the price asked, and `product:price:amount` beside it the list price.
 */
const NAMES = {
	sale: ['product:sale_price:amount', 'og:sale_price:amount'],
	list: ['product:original_price:amount', 'og:original_price:amount'],
	price: ['product:price:amount', 'og:price:amount', 'product:price', 'og:price'],
	currency: ['product:price:currency', 'og:price:currency'],
	availability: ['product:availability', 'og:availability'],
} as const;

/**
 * The offer in a page's Open Graph meta elements (`product:price:amount`,
 * `product:price:currency`, `product:availability`, or their `og:` forms), as one offer;
 * none when they give neither a price nor an availability. The first of each counts.
 *
 * @example
 * openGraphFound(scanMarkup(document).metas)
 * // [{ from: 'opengraph', where: 'meta product:price:amount', price: 19.99, currency: 'USD', … }]
 */
export function openGraphFound(metas: readonly Element[]): Found[] {
	const first = (names: readonly string[]) => {
		for (const name of names) {
			const meta = metas.find((element) => (element.attribs['property'] ?? element.attribs['name'] ?? '').trim().toLowerCase() === name);
			const content = meta?.attribs['content'];
			if (content !== undefined && content.trim() !== '') return { name, content };
		}
		return undefined;
	};
	const sale = first(NAMES.sale);
	const listed = sale ? first(NAMES.price) : first(NAMES.list);
	const price = sale ?? first(NAMES.price);
	const currency = first(NAMES.currency);
	const stated = first(NAMES.availability);
	const { amount, problem } = price ? priceRead(price.content, amountOf) : {};
	const listPrice = listed && priceRead(listed.content, amountOf).amount;
	const availability = stated && availabilityOf(stated.content);
	if (!amount && !availability && problem === undefined) return [];
	const found: Found = { from: 'opengraph', where: `meta ${(amount || problem !== undefined ? price : stated)!.name}`, written: {} };
	if (amount) found.price = amount.amount;
	if (listPrice) found.listPrice = listPrice.amount;
	if (amount || problem !== undefined) found.written.price = price!.content;
	if (problem !== undefined) found.problem = problem;
	const read = currencyRead(currency?.content);
	const code = read.currency ?? amount?.currency;
	if (code !== undefined) found.currency = code;
	if (code !== undefined || read.problem !== undefined) found.written.currency = currency?.content ?? code;
	if (read.problem !== undefined) found.currencyProblem = read.problem;
	if (availability) {
		found.availability = availability;
		found.written.availability = stated!.content;
	}
	return [found];
}
