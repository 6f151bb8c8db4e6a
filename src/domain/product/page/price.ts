import type { Found } from '../found.js';
import { parsePrice } from '../price.js';
import { priceRead } from '../refused.js';
import type { ParsedPrice } from '../../../store/model/product.js';
import { inside, nearestPlace } from './nearest.js';
import type { PagePlace } from './scan.js';
import { describeElement, shortText } from './text.js';
import { withoutTokens } from './tokens.js';
import { fold, PRICE_NAME, WAS_BEFORE, WAS_PRICE } from './words.js';

/** A price element's text longer than this holds more than a price: a block around it. */
const LONG = 100;
/** Candidates not taken that `rules test` lists, at most; the rest are counted. */
const SHOWN = 20;
/** More words than this around a number is a sentence ("free shipping on orders over $50"), less likely the price. */
const WORDY = 4;

const LETTER = /\p{L}/u;

/** A price-looking element that gave a price. */
interface Priced extends PagePlace {
	text: string;
	amount: ParsedPrice;
	named: boolean;
}

/** The price the page shows for its product, as found, and the price-looking elements not taken, each with why. */
export interface PagePrice {
	found?: Found;
	passed: string[];
}

/**
 * The price a page shows for its product, without structured data or a selector: of the
 * elements named as a price or holding a currency and a number, those outside blocks of
 * other products and the page's chrome, not struck through and not after a "was" word,
 * the one nearest the product's title and buy button (`anchors`). An element named as a
 * price is preferred to a sentence with a price in it; a "regular price" element is taken
 * only when no other is left (on a sale it is the former price; on some themes it is the
 * only one). "Was" prices inside the text (`Was $59.99 Now $39.99`) are dropped before
 * it is read. On a page with neither a title nor a buy button, only an element named as
 * a price is taken ("Our prices start at $5" on an about page is no offer).
 *
 * @example
 * pagePrice(scanPage(document).prices, [title]).found // { from: 'page', where: 'span.price, nearest the title', price: 39.99, … }
 */
export function pagePrice(places: readonly PagePlace[], anchors: readonly PagePlace[], anchorName: string, explain = false): PagePrice {
	const passed: string[] = [];
	const priced: Priced[] = [];
	// Said once for a price and the parts inside it (Amazon's `.a-price` and its `.a-offscreen`).
	let said: PagePlace | undefined;
	for (const place of places) {
		// Elsewhere or struck: read only to say so (rules test), never to be taken.
		if ((place.elsewhere || place.struck) && (!explain || passed.length >= SHOWN || (said && inside(place.element, said.element)))) continue;
		const text = shortText(place.element, true);
		if (text === undefined || text === '' || text.length > LONG) continue;
		const shown = `${describeElement(place.element)} "${text}"`;
		if (place.elsewhere || place.struck) {
			if (parsePrice(shortText(place.element) ?? '') !== undefined) {
				passed.push(`${shown}: ${place.elsewhere ?? place.struck}`);
				said = place;
			}
			continue;
		}
		const label = labelBefore(place);
		if (label !== undefined) {
			if (explain && parsePrice(text) !== undefined) passed.push(`${shown}: after "${label}", a former, list or other price than the one asked`);
			continue;
		}
		// "Was" words and tokens have letters: a text with none (`$39.99`, `39,99 €`) is read as it is.
		const read = LETTER.test(text) ? withoutTokens(text.replace(WAS_PRICE, ' ')) : text;
		const { amount, problem } = priceRead(read, (written: string) => parsePrice(written));
		if (problem !== undefined) passed.push(`${shown}: ${problem}`);
		const named = PRICE_NAME.test([place.element.attribs['class'], place.element.attribs['id'], place.element.attribs['itemprop']].join(' '));
		if (!amount || (amount.currency === undefined && !named)) continue;
		// A number with words and no currency is a count ("0 Review(s)"), even in an element named as a price.
		if (amount.currency === undefined && /\p{L}{2}/u.test(text)) continue;
		// A link or a form's label with a price in it is a way elsewhere ("Gifts under $20",
		// "Audio CD from $2.23") or an option's surcharge ("Cash on delivery (€ 18,00)").
		const offside = named ? undefined : linkOrLabel(place.element);
		if (offside !== undefined) {
			if (explain) passed.push(`${shown}: in ${offside}, not the price asked`);
			continue;
		}
		priced.push({ ...place, text, amount, named });
	}
	// A price made of parts (Amazon's whole and fraction spans) is read whole, from the outermost element that gives one.
	const holders = new Set(priced.map((item) => item.element));
	const whole = priced.filter((item) => !within(item.element, holders));
	// A page with neither a title nor a buy button may be no product's: only an element named as a price says one then.
	const current = whole.filter((item) => !item.regular && (anchors.length > 0 || item.named));
	const pool = current.length > 0 ? current : whole.filter((item) => anchors.length > 0 || item.named);
	const taken = nearestPlace(pool, anchors, (item) => (item.named ? 0 : 2) + (item.text.split(' ').length > WORDY ? 3 : 0));
	const pooled = new Set(pool);
	const others = explain ? whole.filter((item) => item !== taken) : [];
	for (const [i, item] of others.entries()) {
		if (passed.length >= SHOWN) {
			passed.push(`and ${others.length - i} more price-looking elements`);
			break;
		}
		const why = pooled.has(item)
			? `farther from the ${anchorName} than ${describeElement(taken!.element)}`
			: item.regular && current.length > 0
				? 'a "regular" price, and a current one was found'
				: 'not named as a price, on a page with neither a title nor a buy button';
		passed.push(`${describeElement(item.element)} "${item.text}": ${why}`);
	}
	if (!taken) return { passed };
	// Named by the tightest element inside it that says the same price: `span.a-price "$29.99"`, not the block around it.
	const same = (item: Priced) => item.amount.amount === taken.amount.amount && item.amount.currency === taken.amount.currency;
	const shown = priced
		.filter((item) => same(item) && inside(item.element, taken.element))
		.reduce((best, item) => (item.text.length < best.text.length ? item : best), taken);
	const where = `${describeElement(shown.element)}, ${anchors.length > 0 ? `nearest the ${anchorName}` : 'first on the page'}`;
	const found: Found = { from: 'page', where, price: taken.amount.amount, written: { price: shown.text } };
	if (taken.amount.currency !== undefined) found.currency = taken.amount.currency;
	return { found, passed };
}

/** The link, form label or title an element is or lies in (`a link (<a>)`), up to a few levels, else undefined. */
function linkOrLabel(element: PagePlace['element']): string | undefined {
	let node: PagePlace['element'] | null = element;
	for (let level = 0; node && node.type === 'tag' && level < 4; node = node.parent as PagePlace['element'] | null, level++) {
		if (node.name === 'a' && node.attribs['href'] !== undefined) return 'a link (<a>)';
		if (node.name === 'label') return 'a form label (<label>)';
		if (node.name === 'h1') return 'the title (a product\'s name: "Monitor MK2")';
	}
	return undefined;
}

/** Whether an element lies inside one of `holders` (a walk up, not a search of them all). */
function within(element: PagePlace['element'], holders: ReadonlySet<PagePlace['element']>): boolean {
	for (let node = element.parent; node; node = node.parent) if (holders.has(node as PagePlace['element'])) return true;
	return false;
}

/**
 * The "was" word right before an element, in the text just ahead of it in its parent (or
 * its parent's, when it is the first thing there): `Was:`, `UVP`, `statt`. Undefined when
 * there is none.
 */
function labelBefore(place: PagePlace): string | undefined {
	let text = '';
	for (let node = place.element, level = 0; level < 2 && node.parent && text.trim() === ''; node = node.parent as typeof node, level++) {
		for (let sibling = node.prev; sibling && text.length < 40; sibling = sibling.prev) {
			const part =
				sibling.type === 'text'
					? (sibling as unknown as { data: string }).data
					: sibling.type === 'tag'
						? (shortText(sibling as typeof node, false, 20) ?? '')
						: '';
			text = `${part} ${text}`;
		}
	}
	const folded = fold(text);
	const match = WAS_BEFORE.exec(folded);
	return match ? folded.slice(match.index).trim() : undefined;
}
