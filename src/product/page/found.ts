import type { AnyNode } from 'domhandler';
import type { Found } from '../found.js';
import { pagePrice } from './price.js';
import { scanPage, type Place } from './scan.js';
import { pageAvailability } from './stock.js';

/**
 * The offer a page shows for its product where it has no structured data for it: the
 * price nearest its title and buy button (`pagePrice`) and the availability its buy area
 * states (`pageAvailability`), each a found offer `from: 'page'`. `passed` gets each
 * price-looking element not taken, with why (`span.price "$4.99": in a block of other
 * products (div.related)`), for `revisit rules test URL --product`.
 *
 * @example
 * pageFound(parseDocument(html)) // [{ from: 'page', where: 'span.price, nearest the title', price: 39.99, currency: '$', … }, { from: 'page', where: 'button#add, the buy button, enabled', availability: 'InStock', … }]
 */
export function pageFound(document: AnyNode, passed: string[] = []): Found[] {
	const scan = scanPage(document);
	const title = scan.titles.find((place) => !place.elsewhere);
	const buttons = scan.buttons.filter((place) => !place.elsewhere);
	// The title first: the buy button nearest it is the product's, and so is the price nearest both.
	const button = title ? buttons.find((place) => place.index > title.index) ?? buttons[0] : buttons[0];
	const anchors: Place[] = [...(title ? [title] : []), ...(button ? [button] : [])];
	const price = pagePrice(scan.prices, anchors, title ? 'title' : 'buy button');
	passed.push(...price.passed);
	const availability = pageAvailability(button ? [button] : [], scan.stocks, anchors);
	return [...(price.found ? [price.found] : []), ...(availability ? [availability] : [])];
}
