import type { Element } from 'domhandler';
import { ELSEWHERE_NAME, PRICE_NAME, REGULAR_NAME, STOCK_NAME, STRUCK_NAME } from './words.js';

/** What an element's names say it is, as bits (`NAMED.price | NAMED.stock`). */
export const NAMED = { elsewhere: 1, struck: 2, regular: 4, price: 8, stock: 16 } as const;

/** Any of the five: one test that most class strings fail (nine in ten), where each of the five is a pass of its own. */
const ANY_NAME = new RegExp([ELSEWHERE_NAME, STRUCK_NAME, REGULAR_NAME, PRICE_NAME, STOCK_NAME].map((pattern) => `(?:${pattern.source})`).join('|'), 'i');

/**
 * The attributes the page scan reads of an element, taken in one pass over them: a look-up
 * of a name an element does not have (most have none of these) costs more than the pass,
 * the attribute objects being of as many shapes as there are attribute lists. One per scan,
 * read again for each element.
 *
 * @example
 * new Attributes().read(span).class // 'price' for <span class="price">
 */
export class Attributes {
	class: string | undefined;
	id: string | undefined;
	role: string | undefined;
	itemprop: string | undefined;
	test: string | undefined;
	style: string | undefined;
	ariaHidden: string | undefined;
	hidden = false;

	read(element: Element): this {
		this.class = this.id = this.role = this.itemprop = this.test = this.style = this.ariaHidden = undefined;
		this.hidden = false;
		const attribs = element.attribs;
		for (const name in attribs) {
			switch (name) {
				case 'class':
					this.class = attribs[name];
					break;
				case 'id':
					this.id = attribs[name];
					break;
				case 'role':
					this.role = attribs[name];
					break;
				case 'itemprop':
					this.itemprop = attribs[name];
					break;
				case 'data-testid':
					this.test = attribs[name];
					break;
				case 'style':
					this.style = attribs[name];
					break;
				case 'aria-hidden':
					this.ariaHidden = attribs[name];
					break;
				case 'hidden':
					this.hidden = true;
					break;
			}
		}
		return this;
	}
}

/**
 * What an element's names say it is, each name tested on its own (none of the patterns
 * spans a space, so this is what testing them joined would say, without joining them): its
 * class and id whether it is a block of other products (`ELSEWHERE_NAME`), a former price
 * (`STRUCK_NAME`), a "regular" price, a price or a stock note; its `itemprop` and test id
 * whether it is a price or a stock note (an `itemprop` names a value, not a block).
 *
 * @example
 * nameFlags(new Attributes().read(span)) & NAMED.price // 8 for <span class="product-price">
 */
export function nameFlags(attributes: Attributes): number {
	let flags = 0;
	if (attributes.class !== undefined) flags |= blockFlags(attributes.class);
	if (attributes.id !== undefined) flags |= blockFlags(attributes.id);
	if (attributes.itemprop !== undefined) flags |= valueFlags(attributes.itemprop);
	if (attributes.test !== undefined) flags |= valueFlags(attributes.test);
	return flags;
}

function blockFlags(name: string): number {
	if (!ANY_NAME.test(name)) return 0;
	return (
		(ELSEWHERE_NAME.test(name) ? NAMED.elsewhere : 0) |
		(STRUCK_NAME.test(name) ? NAMED.struck : 0) |
		(REGULAR_NAME.test(name) ? NAMED.regular : 0) |
		valueFlags(name)
	);
}

const valueFlags = (name: string): number => (PRICE_NAME.test(name) ? NAMED.price : 0) | (STOCK_NAME.test(name) ? NAMED.stock : 0);
