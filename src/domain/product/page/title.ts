import type { AnyNode, Element } from 'domhandler';
import { textOf } from '../markup.js';
import type { PagePlace } from './scan.js';
import { fold } from './words.js';

/** A title shorter than this (folded) is too short to say which `<h1>` it names. */
const LEAST = 4;

/**
 * The `<h1>` that is the product's title: of the page's own (`titles`, not in other
 * products' blocks or its chrome), the one the page's `<title>` or `og:title` names
 * (its text held in it: "The Whole Truth (A. Shaw Book 1) - Kindle edition by …" holds
 * "The Whole Truth (A. Shaw Book 1)"), else the one that shares most of its words with it,
 * else the first. Shops put other `<h1>`s before the product's: a logo, a pop-over's
 * heading ("Buying and sending eBooks to others"), "Follow the author".
 *
 * @example
 * productTitle(scan.titles, 'Street Fighter V – PS4') // the <h1>Street Fighter V</h1>, not <h1>GameXchange | Trade in Games</h1>
 */
export function productTitle(titles: readonly PagePlace[], pageTitle: string | undefined): PagePlace | undefined {
	const own = titles.filter((place) => !place.elsewhere);
	if (own.length <= 1 || pageTitle === undefined) return own[0];
	const named = fold(pageTitle);
	if (named.length < LEAST) return own[0];
	const texts = own.map((place) => fold(textOf(place.element)));
	// The longest held: a logo's "Shop" is in "Kettle | Shop" too.
	let held: number | undefined;
	texts.forEach((text, i) => {
		if (text.length >= LEAST && named.includes(text) && (held === undefined || text.length > texts[held]!.length)) held = i;
	});
	if (held !== undefined) return own[held];
	const words = new Set(named.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 2));
	let best: PagePlace | undefined;
	let bestShare = 0.5;
	own.forEach((place, i) => {
		const its = texts[i]!.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 2);
		const share = its.length < 2 ? 0 : its.filter((word) => words.has(word)).length / its.length;
		if (share > bestShare) [best, bestShare] = [place, share];
	});
	return best ?? own[0];
}

/**
 * The page's own title as its `<head>` states it: `og:title`, else `<title>`. Looked for
 * in the head only (a walk of a few elements, not of the page).
 *
 * @example
 * pageTitle(parseDocument('<html><head><title>Kettle | Shop</title></head></html>')) // 'Kettle | Shop'
 */
export function pageTitle(document: AnyNode): string | undefined {
	const head = childNamed(childNamed(document, 'html') ?? document, 'head');
	if (!head) return undefined;
	let title: string | undefined;
	for (const child of head.children) {
		if (child.type !== 'tag') continue;
		const element = child as Element;
		if (element.name === 'meta' && (element.attribs['property'] ?? element.attribs['name']) === 'og:title' && element.attribs['content']?.trim())
			return element.attribs['content'];
		if (element.name === 'title' && title === undefined) title = textOf(element);
	}
	return title?.trim() || undefined;
}

const childNamed = (node: AnyNode, name: string): Element | undefined =>
	'children' in node ? (node.children.find((child) => child.type === 'tag' && (child as Element).name === name) as Element | undefined) : undefined;
