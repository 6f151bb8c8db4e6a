import type { AnyNode } from 'domhandler';
import type { Found } from '../found.js';
import { pagePrice } from './price.js';
import { buyButton } from './controls.js';
import { scanPage, type PagePlace } from './scan.js';
import { pageAvailability } from './stock.js';
import { pageTitle, productTitle } from './title.js';

/**
 * The offer a page shows for its product where it has no structured data for it: the
 * price nearest its title and buy button (`pagePrice`) and the availability its buy area
 * states (`pageAvailability`), each a found offer `from: 'page'`; the availability alone
 * where `withPrice` is false (the price came from structured data). `passed` gets each
 * price-looking element not taken, with why (`span.price "$4.99": in a block of other
 * products (div.related)`), for `revisit rules test URL --product`.
 *
 * @example
 * pageFound(parseDocument(html))
 * // [{ from: 'page', where: 'span.price, nearest the title', price: 39.99, currency: '$', … },
 * //  { from: 'page', where: 'button#add, the buy button, enabled', availability: 'InStock', … }]
 */
export function pageFound(document: AnyNode, passed?: string[], withPrice = true): Found[] {
	const scan = scanPage(document, { explain: passed !== undefined, prices: withPrice });
	const title = productTitle(scan.titles, pageTitle(document));
	// The title first: the first buy button after it is the product's (else the page's first), and the price nearest both.
	const controls = scan.controls.filter((place) => !place.elsewhere);
	const after = title ? controls.filter((place) => place.index > title.index) : [];
	// Else the page's first: none after the title is one, so those are not asked again.
	const button =
		after.find((place) => buyButton(place.element)) ?? controls.find((place) => (!title || place.index <= title.index) && buyButton(place.element));
	const anchors: PagePlace[] = [...(title ? [title] : []), ...(button ? [button] : [])];
	const price = withPrice ? pagePrice(scan.prices, anchors, title ? 'title' : 'buy button', passed !== undefined) : { passed: [] };
	passed?.push(...price.passed);
	const availability = pageAvailability(button ? [button] : [], scan.stocks, anchors, scan.notes);
	return [...(price.found ? [price.found] : []), ...(availability ? [availability] : [])];
}
