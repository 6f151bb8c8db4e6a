import type { Element } from 'domhandler';
import { ELSEWHERE_NAME, PRICE_NAME, REGULAR_NAME, STOCK_NAME, STRUCK_NAME } from './words.js';

/** What an element's names say it is, as bits (`NAMED.price | NAMED.stock`). */
export const NAMED = { elsewhere: 1, struck: 2, regular: 4, price: 8, stock: 16 } as const;

/** Any of the five: one test that most class strings fail (nine in ten), where each of the five is a pass of its own. */
const ANY_NAME = new RegExp([ELSEWHERE_NAME, STRUCK_NAME, REGULAR_NAME, PRICE_NAME, STOCK_NAME].map((pattern) => `(?:${pattern.source})`).join('|'), 'i');

/**
 * What an element's names say it is, each name tested on its own (none of the patterns
 * spans a space, so this is what testing them joined would say, without joining them): its
 * class and id whether it is a block of other products (`ELSEWHERE_NAME`), a former price
 * (`STRUCK_NAME`), a "regular" price, a price or a stock note; its `itemprop` and test id
 * whether it is a price or a stock note (an `itemprop` names a value, not a block).
 *
 * @example
 * nameFlags(span) & NAMED.price // 8 for <span class="product-price">
 */
export function nameFlags(element: Element): number {
	const { class: classes, id, itemprop, 'data-testid': test } = element.attribs;
	let flags = 0;
	if (classes !== undefined) flags |= blockFlags(classes);
	if (id !== undefined) flags |= blockFlags(id);
	if (itemprop !== undefined) flags |= valueFlags(itemprop);
	if (test !== undefined) flags |= valueFlags(test);
	return flags;
}

function blockFlags(name: string): number {
	if (!ANY_NAME.test(name)) return 0;
	return (ELSEWHERE_NAME.test(name) ? NAMED.elsewhere : 0) | (STRUCK_NAME.test(name) ? NAMED.struck : 0) | (REGULAR_NAME.test(name) ? NAMED.regular : 0) | valueFlags(name);
}

const valueFlags = (name: string): number => (PRICE_NAME.test(name) ? NAMED.price : 0) | (STOCK_NAME.test(name) ? NAMED.stock : 0);
