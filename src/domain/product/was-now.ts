import type { AnyNode, Element, Text } from 'domhandler';
import { amountOf } from './amount.js';
import { valueOf } from './markup.js';
import { parsePrice } from './price.js';
import { priceRead } from './refused.js';
import type { ParsedPrice } from '../../store/model/product.js';

/**
 * Class names, ids and `data-price-type`s that say a price is not the one asked but the
 * one struck through beside it: `old-price`, `was-price`, `compare-at-price`, `price--regular`,
 * `rrp`, `uvp`, `line-through`, Magento's `oldPrice`, BigCommerce's `price--non-sale`.
 */
const LISTY = new RegExp(
	String.raw`(^|[\s_-])(was|old|rrp|uvp|msrp|srp|strike(through|out)?|crossed(-?out)?|line-?through|compare-?at|del|non-?sale)([\s_-]|$)|(regular|old|was|` +
		`list|compare(-?at)?|original|before|retail|reference|strike|crossed)[-_]*price|price[-_]*(item[-_]*)?(regular|old|was|list|compare(-?at)?|` +
		`original|before|retail|strike|crossed)`,
	'i',
);
const STRUCK_TAGS = new Set(['del', 's', 'strike']);
/** How far up a price's context is looked for: a `<del>` or an `old-price` a few levels up. */
const CONTEXT_LEVELS = 4;

/**
 * How an element is marked as a list price: `tag` inside a `<del>`, `<s>` or `<strike>`
 * (or styled `line-through`), `class` in an element whose class, id or `data-price-type`
 * says so; undefined when neither, looking at the element and up to four ancestors, and
 * never past `stop` (the item or the element a selector matched).
 *
 * @example
 * struck(span) // 'tag' for <del><span class="amount">$59.99</span></del>
 */
export function struck(element: Element, stop?: Element | null): 'tag' | 'class' | undefined {
	let byClass = false;
	let node: Element | null = element;
	for (let level = 0; node && level <= CONTEXT_LEVELS; level++, node = node.parent as Element | null) {
		if (node.type !== 'tag' && node.type !== 'script') break;
		if (marked(node) === 'tag') return 'tag';
		if (marked(node) === 'class') byClass = true;
		if (node === stop) break;
	}
	return byClass ? 'class' : undefined;
}

function marked(element: Element): 'tag' | 'class' | undefined {
	// Amazon marks its struck-through list price `data-a-strike="true"`.
	if (STRUCK_TAGS.has(element.name) || /line-through/i.test(element.attribs['style'] ?? '') || element.attribs['data-a-strike'] === 'true') return 'tag';
	const attribs = element.attribs;
	return LISTY.test(`${attribs['class'] ?? ''} ${attribs['id'] ?? ''} ${attribs['data-price-type'] ?? ''}`) ? 'class' : undefined;
}

/**
 * An element's text in two: what is struck through inside it (`<del>`, `<s>`, an
 * `old-price`) and the rest, each with the white space collapsed.
 *
 * @example
 * splitStruck(p) // { current: '$39.99', struck: '$59.99' } for <p><del>$59.99</del> <ins>$39.99</ins></p>
 */
export function splitStruck(element: Element): { current: string; struck: string } {
	const current: string[] = [];
	const gone: string[] = [];
	// With a stack of its own: a price element may hold elements nested 10,000 deep.
	const sorted = (child: AnyNode, into: string[]): [AnyNode, string[]] => [
		child,
		into === current && child.type === 'tag' && marked(child as Element) !== undefined ? gone : into,
	];
	const stack = element.children.map((child) => sorted(child, current)).reverse();
	while (stack.length > 0) {
		const [node, into] = stack.pop()!;
		if (node.type === 'text') into.push((node as Text).data);
		else if (node.type === 'tag') {
			const children = (node as Element).children;
			for (let i = children.length - 1; i >= 0; i--) stack.push(sorted(children[i]!, into));
		}
	}
	// Joined as the text is (`<span>$</span>59.99` is `$59.99`); a struck part apart from the next.
	const tidy = (parts: string[]) => parts.join('').replace(/\s+/g, ' ').trim();
	return { current: tidy(current), struck: tidy(gone) };
}

// Words before a price that say it was the price; then words that say it is the price now.
const WAS =
	'was|were|before|regular(?:ly)?(?: price)?|reg\\.|list(?: price)?|rrp|uvp|msrp|srp|statt|anstatt|vorher|bisher|früher|ursprünglich(?:er preis)?|' +
	'streichpreis|alter preis|avant|au lieu de|prix (?:barré|de référence|conseillé|initial)|antes|precio (?:anterior|original)|prima|invece di|' +
	'prezzo (?:pieno|di listino|consigliato)|compare at|originally|original(?: price)?|instead of|previously|old price';
const NOW =
	'now|sale(?: price)?|only|current(?: price)?|jetzt|nur|neu|maintenant|ahora|ora|special price|our ' +
	'price|offer price|your price|you pay|deal|aktionspreis|angebot|price|preis|prix|precio|prezzo|pris|cena';
const LABEL = new RegExp(`(?<![\\p{L}])(?:(?<was>${WAS})|(?<now>${NOW}))(?![\\p{L}])`, 'giu');
// A number with what is written right after it: a currency ("79,00 €"), a dash ("12,-").
const NUMBER = /\d(?:[\d.,'\u00a0 ]*\d)?(?: ?[^\s\d]+)?/;

/**
 * The price and the list price in a text that says which is which: "Was $59.99 Now
 * $39.99", "Regular price $59.99 Sale price $39.99", "UVP 99,00 € jetzt 79,00 €",
 * "$39.99 (was $59.99)". A word applies to the first price after it. Undefined when no
 * price in the text is called a former one; a text whose only prices are called former
 * ("Regular price $39.99", as a theme labels a price not on sale) gives that as the price.
 *
 * @example
 * wasNow('Was $59.99 Now $39.99') // { price: { amount: 39.99, currency: '$' }, listPrice: { amount: 59.99, currency: '$' } }
 * wasNow('$39.99') // undefined
 */
export function wasNow(text: string): { price: ParsedPrice; listPrice?: ParsedPrice } | undefined {
	if (!/\d/.test(text)) return undefined;
	const segments: { label: 'was' | 'now' | 'none'; text: string }[] = [];
	let label: 'was' | 'now' | 'none' = 'none';
	let last = 0;
	for (const match of text.matchAll(LABEL)) {
		segments.push({ label, text: text.slice(last, match.index) });
		label = match.groups!['was'] !== undefined ? 'was' : 'now';
		last = match.index! + match[0].length;
	}
	segments.push({ label, text: text.slice(last) });
	if (!segments.some((segment) => segment.label === 'was')) return undefined;
	const prices: { label: 'was' | 'now' | 'none'; price: ParsedPrice }[] = [];
	for (const segment of segments) {
		// The word is the first price's; what follows it is unlabelled.
		const number = NUMBER.exec(segment.text);
		if (!number) continue;
		const end = number.index + number[0].length;
		for (const [part, named] of [
			[segment.text.slice(0, end), segment.label],
			[segment.text.slice(end), 'none'],
		] as const) {
			const price = parsePrice(part);
			if (price) prices.push({ label: named, price });
		}
	}
	const was = prices.find((item) => item.label === 'was');
	if (!was) return undefined;
	const now = prices.find((item) => item.label === 'now') ?? prices.find((item) => item.label === 'none');
	return now ? { price: now.price, listPrice: was.price } : { price: was.price };
}

/**
 * A price element's price and list price: all of it the list price when it is struck
 * through (or in a list price specification); else the list price from what is struck
 * inside it or called "was" in its text, the price from the rest. `stop` is where the
 * look for a struck-through context ends (the item the price is of); `struck` says how
 * the whole element was marked, by its tag (or a list price specification) or its class.
 *
 * @example
 * shownPrice(p, null) // for <p><del>$59.99</del> <ins>$39.99</ins></p>
 * // { price: { amount: 39.99, currency: '$' }, listPrice: { amount: 59.99, currency: '$' } }
 */
export function shownPrice(
	element: Element,
	stop: Element | null,
	listSpec = false,
): { price?: ParsedPrice; listPrice?: ParsedPrice; problem?: string; struck?: 'tag' | 'class' } {
	const { value, text } = valueOf(element);
	const read = (written: string) => priceRead(written, text ? (shown: string) => parsePrice(shown) : amountOf);
	const mark = listSpec ? 'tag' : struck(element, stop);
	if (mark !== undefined) {
		const { amount } = read(value);
		return amount ? { listPrice: amount, struck: mark } : {};
	}
	if (!text) return toShown(read(value));
	const { current, struck: gone } = splitStruck(element);
	const split = wasNow(current);
	const listPrice = (gone ? parsePrice(gone) : undefined) ?? split?.listPrice;
	const now = split ? priceRead(current, () => split.price) : read(current);
	return { ...toShown(now), ...(listPrice ? { listPrice } : {}) };
}

const toShown = ({ amount, problem }: { amount?: ParsedPrice; problem?: string }): { price?: ParsedPrice; problem?: string } => ({
	...(amount ? { price: amount } : {}),
	...(problem !== undefined ? { problem } : {}),
});
