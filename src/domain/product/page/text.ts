import type { AnyNode, Element, Text } from 'domhandler';
import type { Attributes } from './names.js';
import { STRUCK_NAME } from './words.js';

/** Never shown, or not text. */
const UNSEEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'select', 'option', 'textarea']);

/**
 * Not shown: scripts and the like, `hidden`, `aria-hidden="true"` (the visual copy of a price whose text is given for screen readers).
 *
 * @example
 * hidden(span) // true for <span aria-hidden="true">$29.99</span>
 */
export const hidden = (element: Element): boolean => {
	const attribs = element.attribs;
	return (
		UNSEEN.has(element.name) ||
		attribs['hidden'] !== undefined ||
		attribs['aria-hidden'] === 'true' ||
		(attribs['style'] !== undefined && DISPLAY_NONE.test(attribs['style']))
	);
};

/** `hidden`, of attributes read already (`Attributes`). */
export const hiddenBy = (element: Element, attributes: Attributes): boolean =>
	UNSEEN.has(element.name) || attributes.hidden || attributes.ariaHidden === 'true' || (attributes.style !== undefined && DISPLAY_NONE.test(attributes.style));

const DISPLAY_NONE = /display:\s*none/i;

/**
 * Why an element's text is a former or list price, or undefined; `named` says whether its
 * class or id names one (`STRUCK_NAME`), where the caller has tested it already.
 *
 * @example
 * struckBy(del) // 'struck through (<del>)'
 * struckBy(span) // 'a former or list price (span.old-price)' for <span class="old-price">
 */
export function struckBy(element: Element, named = struckName(element)): string | undefined {
	if (element.name === 'del' || element.name === 's' || element.name === 'strike') return `struck through (<${element.name}>)`;
	if (/line-through/i.test(element.attribs['style'] ?? '') || element.attribs['data-a-strike'] === 'true')
		return `struck through (${describeElement(element)})`;
	if (named) return `a former or list price (${describeElement(element)})`;
	return undefined;
}

/** Whether an element's class or id names a former or list price. */
const struckName = (element: Element): boolean => {
	const { class: classes, id } = element.attribs;
	return (classes !== undefined && STRUCK_NAME.test(classes)) || (id !== undefined && STRUCK_NAME.test(id));
};

/** The text of an element's own text children, as written. */
export function rawOwnText(element: Element): string {
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
 * elementText(p, true) // '$39.99' for <p class="price"><del>$59.99</del> <ins>$39.99</ins></p>
 */
export function elementText(element: Element, unstruck = false): string {
	return shortText(element, unstruck, Number.POSITIVE_INFINITY)!;
}

/** Nodes a price or a stock note holds, at most (WooCommerce's price with its <del> and <ins> has 15): an element holding more is a block around one. */
export const SMALL = 40;

/**
 * `elementText`, or undefined once the walk has passed `maxNodes` nodes: a price or a
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

/**
 * An element, short: its tag with id and first classes (`span#price.a-price.big`).
 *
 * @example
 * describeElement(element) // 'div.related-products'
 */
export function describeElement(element: Element): string {
	const id = element.attribs['id'] ? `#${element.attribs['id']}` : '';
	const classes = (element.attribs['class'] ?? '')
		.split(/\s+/)
		.filter(Boolean)
		.slice(0, 3)
		.map((name) => `.${name}`)
		.join('');
	return `${element.name}${id}${classes}`;
}
