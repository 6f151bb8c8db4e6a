import type { AnyNode, Element, Text } from 'domhandler';
import { findAll } from 'domutils';

/** The elements an offer can be read from, found in one walk of the page. */
export interface Markup {
	/** The text of each `<script type="application/ld+json">`, in page order. */
	jsonLd: string[];
	/** Elements with an `itemprop`, in page order. */
	itemprops: Element[];
	/** `<meta>` elements with a `property` or `name`, in page order. */
	metas: Element[];
}

/**
 * The JSON-LD blocks, microdata properties and meta elements of a page, in one walk.
 *
 * @example
 * scanMarkup(parseDocument(html)).jsonLd // ['{"@type":"Product",…}']
 */
export function scanMarkup(document: AnyNode[] | AnyNode): Markup {
	const found: Markup = { jsonLd: [], itemprops: [], metas: [] };
	const nodes = Array.isArray(document) ? document : [document];
	findAll((element) => {
		const attribs = element.attribs;
		if (attribs['itemprop'] !== undefined) found.itemprops.push(element);
		if (element.name === 'meta' && (attribs['property'] !== undefined || attribs['name'] !== undefined)) found.metas.push(element);
		else if (element.name === 'script' && /^\s*application\/ld\+json\s*(;|$)/i.test(attribs['type'] ?? '')) found.jsonLd.push(textOf(element));
		return false;
	}, nodes as AnyNode[]);
	return found;
}

/**
 * What an element says as a value, as microdata reads it: `content` when it has one (shops
 * put it on any element: `<span itemprop="price" content="19.99">$19.99</span>`), else a
 * link's `href`, a `<data>`'s `value`, a `<time>`'s `datetime`, else its text with the
 * white space collapsed.
 *
 * @example
 * valueOf(link) // 'https://schema.org/InStock' for <link itemprop="availability" href="https://schema.org/InStock">
 */
export function valueOf(element: Element): { value: string; text: boolean } {
	const attribs = element.attribs;
	if (attribs['content'] !== undefined) return { value: attribs['content'], text: false };
	if (/^(a|link|area)$/.test(element.name) && attribs['href'] !== undefined) return { value: attribs['href'], text: false };
	if (/^(data|meter)$/.test(element.name) && attribs['value'] !== undefined) return { value: attribs['value'], text: false };
	if (element.name === 'time' && attribs['datetime'] !== undefined) return { value: attribs['datetime'], text: false };
	return { value: textOf(element).replace(/\s+/g, ' ').trim(), text: true };
}

/**
 * An element's text, as domutils' `textContent` gives it (text and CDATA, not comments),
 * walked with a stack of its own: `textContent` recurses once a level, and an element
 * nested 10,000 deep overflowed the call stack.
 *
 * @example
 * textOf(parseDocument('<p>a<b>b</b></p>').firstChild) // 'ab'
 */
export function textOf(node: AnyNode): string {
	const parts: string[] = [];
	const stack: AnyNode[] = [node];
	while (stack.length > 0) {
		const current = stack.pop()!;
		if (current.type === 'text') parts.push((current as Text).data);
		else if (current.type !== 'comment' && 'children' in current) for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
	}
	return parts.join('');
}
