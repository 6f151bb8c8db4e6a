import type { AnyNode, Element } from 'domhandler';
import { shortText } from './text.js';
import { BUY_NAME, BUY_WORDS, fold } from './words.js';

/** Elements that are controls a buyer presses. */
export const CONTROLS = new Set(['button', 'a', 'input']);

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
		if (inner.name === 'img')
			return inner.attribs['alt']?.trim() || (/([^/?#]+)\.(png|gif|jpe?g|svg|webp)(?:[?#]|$)/i.exec(inner.attribs['src'] ?? '')?.[1] ?? '');
		stack.push(...inner.children);
	}
	return '';
}
