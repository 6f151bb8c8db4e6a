import type { AnyNode, Element, Text } from 'domhandler';
import { findCurrencies } from '../currencies.js';
import { normalizeSpaces } from '../price-number.js';
import { BUY_NAME, BUY_WORDS, ELSEWHERE_NAME, OTHERS_HEADING, PRICE_NAME, REGULAR_NAME, STOCK_NAME, STRUCK_NAME, fold } from './words.js';

/** One element of a page as the scan saw it: where it is, and what around it says it is not this product's price. */
export interface Place {
	element: Element;
	/** Its place in document order. */
	index: number;
	/** Why it is not this product's: `in a related-products block (div.related)`, `in the page's header`. */
	elsewhere?: string;
	/** Why its price is not the current one: `struck through (<del>)`, `a former or list price (.old-price)`. */
	struck?: string;
	/** Inside a "regular price" element: the former price on a sale, on some themes the only one. */
	regular?: boolean;
}

/** What a page shows of its product, found in one walk: titles, buy buttons, prices and stock words. */
export interface PageScan {
	/** `<h1>` elements, in page order. */
	titles: Place[];
	/** Controls a buyer presses (buttons, links, inputs), in page order: `buyButton` says which are add-to-cart or buy ones, asked only of those near the title. */
	controls: Place[];
	/** Elements named as a price, or whose own text holds a currency and a number, in page order. */
	prices: Place[];
	/** Elements named as stock or availability. */
	stocks: Place[];
	/** Elements with a short text of their own: read for stock words only where a page has no buy button. */
	notes: Place[];
}

/** Never shown, or not text. */
const UNSEEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'select', 'option', 'textarea']);
/** Elements that are controls a buyer presses. */
const CONTROLS = new Set(['button', 'a', 'input']);
/** Elements that set a context by their name alone. */
const CONTEXTUAL = new Set(['main', 'article', 'nav', 'aside', 'header', 'footer', 'del', 's', 'strike']);
/** Own text longer than this is prose, not a price or a stock note. */
export const SHORT = 80;

interface Context {
	elsewhere?: string;
	struck?: string;
	regular?: boolean;
	/** Inside `<main>` or `<article>`: a `<header>` or `<footer>` there is the product's, not the page's. */
	main?: boolean;
}

/**
 * Walks a page once and notes its titles, buy buttons, price-looking elements and stock
 * words, each with what around it rules it out: a related-products block, the page's
 * header, nav or footer, struck-through or "was" markup. Hidden elements (`hidden`,
 * `aria-hidden`, scripts, styles, templates) are not walked, and neither are blocks of
 * other products and the page's chrome unless `explain` asks what they hold (a mega menu
 * of 200 links is most of a page's elements, and none of them is the offer).
 *
 * @example
 * scanPage(parseDocument(html)).prices.map((place) => place.element.attribs['class']) // ['price', 'price old-price']
 */
export function scanPage(document: AnyNode, explain = false): PageScan {
	const found: PageScan = { titles: [], controls: [], prices: [], stocks: [], notes: [] };
	const stack: Array<[AnyNode, Context]> = [[document, {}]];
	let index = 0;
	while (stack.length > 0) {
		const [node, outer] = stack.pop()!;
		if (!('children' in node)) continue;
		let context = outer;
		if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
			const element = node as Element;
			if (hidden(element)) continue;
			context = within(element, outer);
			if (context.elsewhere && !explain) continue;
			// Counted among the page's own elements only, so that `explain` walking the others changes no choice.
			const place: Place = { element, index: context.elsewhere ? index : index++ };
			if (context.elsewhere) place.elsewhere = context.elsewhere;
			if (context.struck) place.struck = context.struck;
			if (context.regular) place.regular = true;
			note(found, place);
		}
		for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i]!, context]);
	}
	return found;
}

function note(found: PageScan, place: Place): void {
	const element = place.element;
	if (element.name === 'h1') found.titles.push(place);
	if (CONTROLS.has(element.name) || element.attribs['role'] === 'button') found.controls.push(place);
	const named = names(element);
	const raw = rawOwnText(element);
	// Collapsed only where it may be a price: most elements' own text is white space or words.
	const priced = /\d/.test(raw) && raw.length <= 4 * SHORT && shortEnough(raw);
	if (PRICE_NAME.test(named) || (priced && findCurrencies(normalizeSpaces(raw)).length > 0)) found.prices.push(place);
	if (STOCK_NAME.test(named)) found.stocks.push(place);
	else if (!place.elsewhere && raw.length <= 4 * SHORT && /\S/.test(raw)) found.notes.push(place);
}

const shortEnough = (raw: string): boolean => raw.replace(/\s+/g, ' ').trim().length <= SHORT;

/** Headings a block's first element is. */
const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5']);

/**
 * The heading a block of other products opens with ("Recommended Products", "Ähnliche
 * Artikel"), where its first element is one: many themes name such a block only by it. Else undefined.
 */
function otherProductsHeading(element: Element): string | undefined {
	for (const child of element.children) {
		if (child.type === 'text' && /^\s*$/.test((child as Text).data)) continue;
		if (child.type !== 'tag' || !HEADINGS.has((child as Element).name)) return undefined;
		const text = shortText(child as Element, false, 10);
		return text !== undefined && text.length <= 60 && OTHERS_HEADING.test(fold(text)) ? text : undefined;
	}
	return undefined;
}

/** The outer context, or one of other products' where the element's heading says so. */
function headedElsewhere(element: Element, outer: Context): Context {
	const heading = otherProductsHeading(element);
	return heading === undefined ? outer : { ...outer, elsewhere: `in a block of other products (${describe(element)}, headed "${heading}")` };
}

/** The context an element's own subtree is in. */
function within(element: Element, outer: Context): Context {
	const classes = blockNames(element);
	const role = element.attribs['role'];
	// Most elements change nothing: the outer context is passed on as it is.
	if (classes === '' && role === undefined && !CONTEXTUAL.has(element.name)) return outer.elsewhere ? outer : headedElsewhere(element, outer);
	const context: Context = { ...outer };
	if (element.name === 'main' || element.name === 'article') context.main = true;
	if (!context.elsewhere) {
		if (element.name === 'nav' || element.name === 'aside' || role === 'navigation' || role === 'banner' || role === 'contentinfo' || role === 'complementary') context.elsewhere = `in the page's ${element.name === 'aside' || role === 'complementary' ? 'sidebar' : role === 'banner' ? 'header' : role === 'contentinfo' ? 'footer' : 'navigation'} (${describe(element)})`;
		else if ((element.name === 'header' || element.name === 'footer') && !outer.main) context.elsewhere = `in the page's ${element.name} (${describe(element)})`;
		else if (ELSEWHERE_NAME.test(classes)) context.elsewhere = `in a block of other products (${describe(element)})`;
		else {
			const heading = otherProductsHeading(element);
			if (heading !== undefined) context.elsewhere = `in a block of other products (${describe(element)}, headed "${heading}")`;
		}
	}
	if (!context.struck) {
		const struck = struckBy(element);
		if (struck) context.struck = struck;
	}
	if (REGULAR_NAME.test(classes)) context.regular = true;
	return context;
}

/**
 * Why an element's text is a former or list price, or undefined.
 *
 * @example
 * struckBy(del) // 'struck through (<del>)'
 * struckBy(span) // 'a former or list price (span.old-price)' for <span class="old-price">
 */
export function struckBy(element: Element): string | undefined {
	if (element.name === 'del' || element.name === 's' || element.name === 'strike') return `struck through (<${element.name}>)`;
	if (/line-through/i.test(element.attribs['style'] ?? '') || element.attribs['data-a-strike'] === 'true') return `struck through (${describe(element)})`;
	if (STRUCK_NAME.test(blockNames(element))) return `a former or list price (${describe(element)})`;
	return undefined;
}

/**
 * Not shown: scripts and the like, `hidden`, `aria-hidden="true"` (the visual copy of a price whose text is given for screen readers).
 *
 * @example
 * hidden(span) // true for <span aria-hidden="true">$29.99</span>
 */
export const hidden = (element: Element): boolean =>
	UNSEEN.has(element.name) || element.attribs['hidden'] !== undefined || element.attribs['aria-hidden'] === 'true' || /display:\s*none/i.test(element.attribs['style'] ?? '');

/**
 * Whether a control is an add-to-cart or buy one, by its name, class or id, or by what it
 * says ("Add to cart", "In den Warenkorb", "カートに入れる").
 *
 * @example
 * buyButton(button) // true for <button name="add">Add to cart</button>
 */
export function buyButton(element: Element): boolean {
	const input = element.name === 'input' && /^(submit|button|image)$/i.test(element.attribs['type'] ?? '');
	if (!CONTROLS.has(element.name) && !input && element.attribs['role'] !== 'button') return false;
	if (element.name === 'input' && !input) return false;
	if (BUY_NAME.test(element.attribs['class'] ?? '') || BUY_NAME.test(element.attribs['id'] ?? '') || BUY_NAME.test(element.attribs['name'] ?? '')) return true;
	const says = controlText(element);
	if (says.length > 60) return false;
	const folded = fold(says);
	// "Purchase" alone is a button; "Verified Purchase" is a review's badge.
	return BUY_WORDS.test(folded) || folded === 'purchase';
}

/**
 * What a control says: its value (an `<input>`), else its text, else its `aria-label`, else its image's `alt` or file name.
 *
 * @example
 * controlText(input) // 'Add to Cart' for <input type="submit" value="Add to Cart">
 */
export function controlText(element: Element): string {
	if (element.name === 'input') return element.attribs['value'] ?? element.attribs['alt'] ?? '';
	const text = shortText(element, false, 50) ?? '';
	return text !== '' ? text : (element.attribs['aria-label'] ?? element.attribs['title'] ?? imageText(element));
}

/**
 * What an image button says: its image's `alt`, else its file's name
 * (`/Graphics/AddToCart.png` says "AddToCart"), as old shops draw their buttons.
 */
function imageText(element: Element): string {
	const stack: AnyNode[] = [...element.children];
	for (let seen = 0; stack.length > 0 && seen < 10; seen++) {
		const node = stack.pop()!;
		if (node.type !== 'tag') continue;
		const inner = node as Element;
		if (inner.name === 'img') return inner.attribs['alt']?.trim() || (/([^/?#]+)\.(png|gif|jpe?g|svg|webp)(?:[?#]|$)/i.exec(inner.attribs['src'] ?? '')?.[1] ?? '');
		stack.push(...inner.children);
	}
	return '';
}

/** The text of an element's own text children, as written. */
function rawOwnText(element: Element): string {
	let text = '';
	for (const child of element.children) if (child.type === 'text') text += (child as Text).data;
	return text;
}

/** The text of an element's own text children, collapsed. */
export const ownText = (element: Element): string => rawOwnText(element).replace(/\s+/g, ' ').trim();

/**
 * An element's visible text, collapsed, without what is hidden and, with `unstruck`,
 * without struck-through and "was" markup inside it.
 *
 * @example
 * visibleText(p, true) // '$39.99' for <p class="price"><del>$59.99</del> <ins>$39.99</ins></p>
 */
export function visibleText(element: Element, unstruck = false): string {
	return shortText(element, unstruck, Number.POSITIVE_INFINITY)!;
}

/** Nodes a price or a stock note holds, at most (WooCommerce's price with its <del> and <ins> has 15): an element holding more is a block around one. */
export const SMALL = 40;

/**
 * `visibleText`, or undefined once the walk has passed `maxNodes` nodes: a price or a
 * stock note is a small element, and reading every block around one whole made a page of
 * 10,000 nested `<div class="price">` take seconds.
 *
 * @example
 * shortText(block) // undefined for an element of more than 40 nodes
 */
export function shortText(element: Element, unstruck = false, maxNodes = SMALL): string | undefined {
	const parts: string[] = [];
	const stack: AnyNode[] = [element];
	let visited = 0;
	while (stack.length > 0) {
		if (++visited > maxNodes) return undefined;
		const node = stack.pop()!;
		if (node.type === 'text') parts.push((node as Text).data);
		else if ('children' in node) {
			if (node !== element && (node.type === 'tag' || node.type === 'script' || node.type === 'style')) {
				const inner = node as Element;
				if (hidden(inner) || (unstruck && struckBy(inner) !== undefined)) continue;
			}
			for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
		}
	}
	return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** The names that say what an element is: class, id, `itemprop`, and test ids. */
const names = (element: Element): string => {
	const { class: classes, id, itemprop, 'data-testid': test } = element.attribs;
	return `${classes ?? ''} ${id ?? ''} ${itemprop ?? ''} ${test ?? ''}`;
};

/** The names that say what block an element is: class and id (an `itemprop` names a value, not a block). */
const blockNames = (element: Element): string => {
	const { class: classes, id } = element.attribs;
	return classes === undefined ? (id ?? '') : id === undefined ? classes : `${classes} ${id}`;
};

/**
 * An element, short: its tag with id and first classes (`span#price.a-price.big`).
 *
 * @example
 * describe(element) // 'div.related-products'
 */
export function describe(element: Element): string {
	const id = element.attribs['id'] ? `#${element.attribs['id']}` : '';
	const classes = (element.attribs['class'] ?? '').split(/\s+/).filter(Boolean).slice(0, 3).map((name) => `.${name}`).join('');
	return `${element.name}${id}${classes}`;
}
