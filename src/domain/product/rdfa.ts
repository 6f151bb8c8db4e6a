import type { Element } from 'domhandler';
import type { Found } from './found.js';
import { itemsFound, type Syntax } from './items.js';
import type { Candidate } from './this-product.js';

const SCHEMA = /^https?:\/\/(www\.)?schema\.org\/?$/i;

/**
 * RDFa (Lite) with schema.org's vocabulary: `typeof`, `property`, and the vocabulary named
 * by `vocab="https://schema.org/"` on an ancestor, or by a prefix (`schema:price`, the
 * prefix RDFa knows without a declaration, or one declared by `prefix="s: https://schema.org/"`),
 * or written in full (`https://schema.org/price`). Other vocabularies' properties (`og:`,
 * `product:`, Dublin Core) are not schema.org's and give nothing here.
 */
export const RDFA: Syntax = {
	from: 'rdfa',
	noun: 'typeof',
	properties: (element) =>
		(element.attribs['property'] ?? '')
			.split(/\s+/)
			.filter(Boolean)
			.flatMap((token) => schemaName(token, element) ?? []),
	isItem: (element) => element.attribs['typeof'] !== undefined,
	typeOf: (element) =>
		(element.attribs['typeof'] ?? '')
			.trim()
			.split(/\s+/)[0]!
			.replace(/^.*[/:#]/, ''),
};

function schemaName(token: string, element: Element): string | undefined {
	const full = /^https?:\/\/(www\.)?schema\.org\/(\w+)$/i.exec(token);
	if (full) return full[2]!.toLowerCase();
	const colon = token.indexOf(':');
	if (colon === -1) return declared(element, (node) => SCHEMA.test((node.attribs['vocab'] ?? '').trim())) ? token.toLowerCase() : undefined;
	const prefix = token.slice(0, colon);
	const name = token.slice(colon + 1);
	if (!/^\w+$/.test(name)) return undefined;
	if (prefix === 'schema') return name.toLowerCase();
	return declared(element, (node) => node.attribs['prefix'] !== undefined && declares(node.attribs['prefix'], prefix)) ? name.toLowerCase() : undefined;
}

/** Whether a `prefix` attribute (`og: https://ogp.me/ns# s: https://schema.org/`) maps `prefix` to schema.org. */
function declares(attribute: string, prefix: string): boolean {
	const words = attribute.trim().split(/\s+/);
	for (let i = 0; i + 1 < words.length; i += 2) if (words[i] === `${prefix}:` && SCHEMA.test(words[i + 1]!)) return true;
	return false;
}

function declared(element: Element, test: (node: Element) => boolean): boolean {
	for (let node: Element | null = element; node; node = node.parent as Element | null) if (node.type === 'tag' && test(node)) return true;
	return false;
}

/**
 * The offers in a page's RDFa, as `itemsFound` reads items: `price` (or `lowPrice`),
 * `priceCurrency` and `availability` in schema.org's vocabulary, one offer per item, each
 * with its product.
 *
 * @example
 * rdfaFound(scanMarkup(document).properties)
 * // [{ from: 'rdfa', where: 'typeof #2 Offer', price: 19.99, currency: 'EUR', … }]
 */
export function rdfaFound(properties: readonly Element[], candidates: Candidate[] = [], scopes?: readonly Element[]): Found[] {
	return itemsFound(properties, RDFA, candidates, scopes);
}
