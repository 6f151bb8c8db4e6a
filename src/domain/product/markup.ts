import type { AnyNode, Document, Element, Text } from 'domhandler';
import type { PageFacts } from './this-product.js';

/** The elements an offer can be read from, found in one walk of the page. */
export interface Markup {
	/** The text of each `<script type="application/ld+json">`, in page order. */
	jsonLd: string[];
	/** Elements with an `itemprop`, in page order. */
	itemprops: Element[];
	/** `<meta>` elements with a `property` or `name`, in page order. */
	metas: Element[];
	/** Elements with a `property` (RDFa, and the `<meta>`s among them), in page order. */
	properties: Element[];
	/** Elements with `itemscope` (microdata items), in page order: what `itemscope #3` counts. */
	itemscopes: Element[];
	/** Elements with `typeof` (RDFa items), in page order. */
	typeofs: Element[];
	/** `<link rel="canonical">` hrefs. */
	canonical: string[];
	/** The page's `<title>` (not an SVG's). */
	title?: string;
	h1s: Element[];
	/** Forms that put a product in a cart. */
	carts: Element[];
	/** The page's language: `<html lang>` (or `xml:lang`), where it states one. */
	lang?: string;
}

// A form whose action, id or class says it adds to a cart: Shopify's `/cart/add`, WooCommerce's `form.cart`, Magento's `product_addtocart_form`.
const CART = /cart|basket|warenkorb|panier|carrito|carrello|koszyk|winkelwagen|kosik|korzina/i;

/**
 * The JSON-LD blocks, microdata properties and meta elements of a page, in one walk.
 *
 * @example
 * scanMarkup(parseDocument(html)).jsonLd // ['{"@type":"Product",…}']
 */
export function scanMarkup(document: AnyNode[] | AnyNode): Markup {
	const found = emptyMarkup();
	// A stack of its own holding elements only: domutils' `findAll` with a callback cost a third more.
	const stack: Element[] = [];
	const pushChildren = (nodes: readonly AnyNode[]) => {
		for (let i = nodes.length - 1; i >= 0; i--) {
			const node = nodes[i]!;
			if (node.type === 'tag' || node.type === 'script' || node.type === 'style') stack.push(node as Element);
			else if (node.type === 'root') pushChildren((node as Document).children);
		}
	};
	pushChildren(Array.isArray(document) ? document : [document]);
	while (stack.length > 0) {
		const element = stack.pop()!;
		pushChildren(element.children);
		noteMarkup(found, element);
	}
	return found;
}

/** A Markup with nothing found yet. */
export const emptyMarkup = (): Markup => ({
	jsonLd: [],
	itemprops: [],
	metas: [],
	properties: [],
	itemscopes: [],
	typeofs: [],
	canonical: [],
	h1s: [],
	carts: [],
});

/** Element names `noteMarkup` files by name alone. */
export const MARKUP_NAMES = new Set(['meta', 'script', 'link', 'html', 'h1', 'form', 'title']);

/**
 * Files one element where the offer may be read from it (elements are given in document
 * order): by its `itemprop`, `property`, `itemscope`, `typeof`, and by its name.
 *
 * @example
 * noteMarkup(found, span) // found.itemprops gets <span itemprop="price">
 */
export function noteMarkup(found: Markup, element: Element): void {
	const attribs = element.attribs;
	if (attribs['itemprop'] !== undefined) found.itemprops.push(element);
	if (attribs['property'] !== undefined) found.properties.push(element);
	if (attribs['itemscope'] !== undefined) found.itemscopes.push(element);
	if (attribs['typeof'] !== undefined) found.typeofs.push(element);
	if (MARKUP_NAMES.has(element.name)) noteByName(found, element);
}

/** What an element is by its name: a JSON-LD script, a meta, the canonical link, the page's language, title, `<h1>` or cart form. */
function noteByName(found: Markup, element: Element): void {
	const attribs = element.attribs;
	switch (element.name) {
		case 'meta':
			if (attribs['property'] !== undefined || attribs['name'] !== undefined) found.metas.push(element);
			break;
		case 'script':
			if (/^\s*application\/ld\+json\s*(;|$)/i.test(attribs['type'] ?? '')) found.jsonLd.push(textOf(element));
			break;
		case 'link':
			if (/(^|\s)canonical(\s|$)/i.test(attribs['rel'] ?? '') && attribs['href']) found.canonical.push(attribs['href']);
			break;
		case 'html': {
			const lang = attribs['lang'] ?? attribs['xml:lang'];
			if (found.lang === undefined && lang !== undefined && lang.trim() !== '') found.lang = lang.trim();
			break;
		}
		case 'h1':
			found.h1s.push(element);
			break;
		case 'form':
			if (CART.test(`${attribs['action'] ?? ''} ${attribs['id'] ?? ''} ${attribs['class'] ?? ''}`)) found.carts.push(element);
			break;
		case 'title':
			if (found.title === undefined && !inSvg(element)) found.title = textOf(element).trim();
			break;
	}
}

const inSvg = (element: Element): boolean => {
	for (let node = element.parent; node; node = node.parent) if ((node as Element).name === 'svg') return true;
	return false;
};

/**
 * What the page says about itself, for choosing its product: its URL, canonical and
 * `og:url`, its `og:title`, `<title>` and `<h1>`s, and its add-to-cart forms.
 *
 * @example
 * pageFacts(scanMarkup(document), 'https://shop.example/p/1').canonical // ['https://shop.example/p/1']
 */
export function pageFacts(markup: Markup, url: string | undefined): PageFacts {
	const meta = (name: string) =>
		markup.metas
			.filter((element) => (element.attribs['property'] ?? element.attribs['name'] ?? '').trim().toLowerCase() === name)
			.map((element) => element.attribs['content'] ?? '')
			.filter((content) => content.trim() !== '');
	const h1s = markup.h1s.map((element) => textOf(element).replace(/\s+/g, ' ').trim()).filter((text) => text !== '');
	return {
		url,
		canonical: [...markup.canonical, ...meta('og:url')],
		titles: [...meta('og:title'), ...(markup.title ? [markup.title] : []), ...h1s],
		h1s: markup.h1s,
		carts: markup.carts,
	};
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
	if (attribs['resource'] !== undefined) return { value: attribs['resource'], text: false };
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
