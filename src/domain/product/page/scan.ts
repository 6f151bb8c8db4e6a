import type { AnyNode, Element, ParentNode, Text } from 'domhandler';
import { hasCurrency } from '../currencies.js';
import { normalizeSpaces } from '../price-number.js';
import { CONTROLS } from './controls.js';
import { Attributes, NAMED, nameFlags } from './names.js';
import { describeElement, hiddenBy, rawOwnText, shortText, struckBy } from './text.js';
import { OTHERS_HEADING, fold } from './words.js';

/** One element of a page as the scan saw it: where it is, and what around it says it is not this product's price. */
export interface PagePlace {
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
	titles: PagePlace[];
	/**
	 * Controls a buyer presses (buttons, links, inputs), in page order: `buyButton` says which are add-to-cart or buy ones, asked only of those near the title.
	 */
	controls: PagePlace[];
	/** Elements named as a price, or whose own text holds a currency and a number, in page order. */
	prices: PagePlace[];
	/** Elements named as stock or availability. */
	stocks: PagePlace[];
	/** Elements with a short text of their own: read for stock words only where a page has no buy button. */
	notes: PagePlace[];
}

/** Elements that set a context by their name alone. */
const CONTEXTUAL = new Set(['main', 'article', 'nav', 'aside', 'header', 'footer', 'del', 's', 'strike']);
/** Own text longer than this is prose, not a price or a stock note. */
export const SHORT = 80;

/**
 * How much a scan notes: with `explain`, the blocks of other products and the page's
 * chrome too; without `prices`, no prices (the availability alone is sought).
 */
export interface ScanOptions {
	explain?: boolean;
	prices?: boolean;
}

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
export function scanPage(document: AnyNode, { explain = false, prices = true }: ScanOptions = {}): PageScan {
	const found: PageScan = { titles: [], controls: [], prices: [], stocks: [], notes: [] };
	// Two stacks side by side rather than a pair per node, and elements only: a page has ten thousand nodes, most of them text.
	const nodes: Element[] = [];
	const contexts: Context[] = [];
	// Given elements and documents only (an `in` test of each cost a twentieth of the read).
	const push = (parent: ParentNode, context: Context) => {
		const children = parent.children;
		for (let i = children.length - 1; i >= 0; i--) {
			const child = children[i]!;
			if (child.type === 'tag' || child.type === 'script' || child.type === 'style') {
				nodes.push(child as Element);
				contexts.push(context);
			}
		}
	};
	if (document.type === 'tag') {
		nodes.push(document as Element);
		contexts.push({});
	} else if ('children' in document) push(document, {});
	let index = 0;
	const attributes = new Attributes();
	while (nodes.length > 0) {
		const element = nodes.pop()!;
		const outer = contexts.pop()!;
		if (hiddenBy(element, attributes.read(element))) continue;
		// What its class, id and itemprop say, tested once for both the context and the filing.
		const flags = nameFlags(attributes);
		const context = within(element, outer, flags, attributes);
		if (context.elsewhere && !explain) continue;
		// Counted among the page's own elements only, so that `explain` walking the others changes no choice.
		note(found, element, context.elsewhere ? index : index++, context, prices, flags, attributes.role);
		push(element, context);
	}
	return found;
}

/** Files the element under what it may be; a place is made only for an element filed somewhere (most are not). */
function note(found: PageScan, element: Element, index: number, context: Context, prices: boolean, flags: number, role: string | undefined): void {
	const title = element.name === 'h1';
	const control = CONTROLS.has(element.name) || role === 'button';
	// The own text's length first, its texts joined only where it may be a price: joining them,
	// and the regular expressions flattening what was joined, were most of what a scan allocated.
	const length = ownLength(element);
	const sized = length > 0 && length <= 4 * SHORT;
	const raw = sized && prices && ownTextHas(element, DIGIT) ? rawOwnText(element) : '';
	// Collapsed only where it may be a price: most elements' own text is white space or words.
	const priced = raw !== '' && shortEnough(raw);
	const price = (prices && (flags & NAMED.price) !== 0) || (priced && hasCurrency(normalizeSpaces(raw)));
	const stock = (flags & NAMED.stock) !== 0;
	const short = !stock && !context.elsewhere && sized && ownTextHas(element, NOT_SPACE);
	if (!title && !control && !price && !stock && !short) return;
	const place: PagePlace = { element, index };
	if (context.elsewhere) place.elsewhere = context.elsewhere;
	if (context.struck) place.struck = context.struck;
	if (context.regular) place.regular = true;
	if (title) found.titles.push(place);
	if (control) found.controls.push(place);
	if (price) found.prices.push(place);
	if (stock) found.stocks.push(place);
	if (short) found.notes.push(place);
}

const DIGIT = /\d/;
const NOT_SPACE = /\S/;

/** The length of an element's own text (`rawOwnText`), not joined. */
function ownLength(element: Element): number {
	let length = 0;
	for (const child of element.children) if (child.type === 'text') length += (child as Text).data.length;
	return length;
}

/** Whether an element's own text has a match for `pattern` (one that no join of two texts makes), each text tested as it is. */
function ownTextHas(element: Element, pattern: RegExp): boolean {
	for (const child of element.children) if (child.type === 'text' && pattern.test((child as Text).data)) return true;
	return false;
}

const shortEnough = (raw: string): boolean => raw.length <= SHORT || raw.replace(/\s+/g, ' ').trim().length <= SHORT;

/** Headings a block's first element is. */
const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5']);

/**
 * The heading a block of other products opens with ("Recommended Products", "Ähnliche
 * Artikel"), where its first element is one: many themes name such a block only by it. Else undefined.
 */
function otherProductsHeading(element: Element): string | undefined {
	// Asked of nearly every element a page scan walks: most have one child or none, and no heading.
	if (element.children.length < 2 && element.children[0]?.type !== 'tag') return undefined;
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
	return heading === undefined ? outer : { ...outer, elsewhere: `in a block of other products (${describeElement(element)}, headed "${heading}")` };
}

/** The context an element's own subtree is in: the outer one itself where the element changes nothing, as most do. */
function within(element: Element, outer: Context, flags: number, { class: classes, id, role }: Attributes): Context {
	// No class and no id (nor empty ones): most elements.
	const unnamed = classes === undefined ? !id : id === undefined && classes === '';
	if (unnamed && role === undefined && !CONTEXTUAL.has(element.name)) return outer.elsewhere ? outer : headedElsewhere(element, outer);
	const main = !outer.main && (element.name === 'main' || element.name === 'article');
	const elsewhere = outer.elsewhere ? undefined : elsewhereBy(element, flags, role, outer);
	const struck = outer.struck ? undefined : struckBy(element, (flags & NAMED.struck) !== 0);
	const regular = !outer.regular && (flags & NAMED.regular) !== 0;
	if (!main && !elsewhere && !struck && !regular) return outer;
	const context: Context = { ...outer };
	if (main) context.main = true;
	if (elsewhere) context.elsewhere = elsewhere;
	if (struck) context.struck = struck;
	if (regular) context.regular = true;
	return context;
}

/** Why an element is a block that is not this product's: the page's chrome, or a block of other products. */
function elsewhereBy(element: Element, flags: number, role: string | undefined, outer: Context): string | undefined {
	if (element.name === 'nav' || element.name === 'aside' || role === 'navigation' || role === 'banner' || role === 'contentinfo' || role === 'complementary')
		return (
			`in the page's ` +
			(element.name === 'aside' || role === 'complementary' ? 'sidebar' : role === 'banner' ? 'header' : role === 'contentinfo' ? 'footer' : 'navigation') +
			` (${describeElement(element)})`
		);
	if ((element.name === 'header' || element.name === 'footer') && !outer.main) return `in the page's ${element.name} (${describeElement(element)})`;
	if ((flags & NAMED.elsewhere) !== 0) return `in a block of other products (${describeElement(element)})`;
	const heading = otherProductsHeading(element);
	return heading === undefined ? undefined : `in a block of other products (${describeElement(element)}, headed "${heading}")`;
}
