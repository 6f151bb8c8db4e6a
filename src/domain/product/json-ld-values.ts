/** A JSON-LD node: an object that is not an array. */
export type Node = Record<string, unknown>;

// What shops wrap a block in, from the old advice to hide scripts from XHTML parsers and old browsers:
// `<!-- … -->`, `<![CDATA[ … ]]>`, `/*<![CDATA[*/ … /*]]>*/`, `//<![CDATA[ … //]]>`, Drupal's `<!--//--><![CDATA[//><!-- … //--><!]]>`.
const OPENING = /^(?:\s*(?:<!--|-->|><!--|<!\[CDATA\[|\/\*[^]*?\*\/|\/\/))+/;
// At the end a `//` comment holds no JSON punctuation: `"https://x"}` is no comment.
const CLOSING = /(?:\s*(?:-->|<!\]\]>|\]\]>|\/\*[^*{}"]*\*\/|\/\/[^\n{}[\]"]*))+\s*$/;
/** How much of a block's end is looked at for a closing wrapper. */
const TAIL = 200;

/**
 * A JSON-LD block's value, forgiving what shops commonly get wrong: the block wrapped in an
 * HTML comment or a CDATA section (bare, or inside `/* *\/` or `//` comments), trailing
 * commas, raw line breaks in strings. Undefined when it is not JSON even so.
 *
 * @example
 * parseBlock('/*<![CDATA[*\/ {"a": [1, 2,],} /*]]>*\/') // { a: [1, 2] }
 */
export function parseBlock(text: string): unknown {
	// Most blocks are plain JSON: read as they are, without copying them.
	if (/^\s*[{[]/.test(text)) {
		try {
			return JSON.parse(text);
		} catch {
			// Forgiven below.
		}
	}
	const opened = text.trim().replace(OPENING, '');
	const cut = Math.max(0, opened.length - TAIL);
	const tail = opened.slice(cut);
	const closed = tail.replace(CLOSING, '');
	const bare = (closed.length === tail.length ? opened : opened.slice(0, cut) + closed).trim();
	try {
		return JSON.parse(bare);
	} catch {
		try {
			return JSON.parse(bare.replace(/,(\s*[}\]])/g, '$1').replace(/[\u0000-\u001f]+/g, ' '));
		} catch {
			return undefined;
		}
	}
}

export const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A key in any case: shops write `Offers`, `Price`, `PriceCurrency`.
 *
 * @example
 * field({ Price: '5' }, 'price') // '5'
 */
export function field(node: Node, name: string): unknown {
	if (node[name] !== undefined) return node[name];
	const lower = name.toLowerCase();
	for (const key of Object.keys(node)) if (key.toLowerCase() === lower) return node[key];
	return undefined;
}

/**
 * A value written as a string or a number, however it is wrapped: the first of an array,
 * an object's `@value` (or `value`, `price`, `amount`); undefined for anything else, so
 * that an object is never shown as `[object Object]`.
 *
 * @example
 * scalar({ '@value': '19.99' }) // '19.99'
 * scalar(['19.99', '24.99']) // '19.99'
 */
export function scalar(value: unknown, depth = 0): string | number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	if (depth > 4) return undefined;
	if (Array.isArray(value)) {
		for (const item of value) {
			const found = scalar(item, depth + 1);
			if (found !== undefined) return found;
		}
		return undefined;
	}
	if (!isNode(value)) return undefined;
	for (const name of ['@value', 'value', 'price', 'minPrice', 'amount']) {
		const found = scalar(field(value, name), depth + 1);
		if (found !== undefined) return found;
	}
	return undefined;
}

/**
 * An enumeration value as JSON-LD writes it: a string, `{"@id": "schema:InStock"}`, or a
 * list of either (the first).
 *
 * @example
 * named({ '@id': 'schema:InStock' }) // 'schema:InStock'
 */
export function named(value: unknown): string | undefined {
	const first = Array.isArray(value) ? value[0] : value;
	if (typeof first === 'string') return first;
	const id = isNode(first) ? field(first, '@id') : undefined;
	return typeof id === 'string' ? id : undefined;
}

/**
 * `@type` as a list of bare names: `"Product"`, `["Product", "Car"]`, `"http://schema.org/Product"`, `"schema:Offer"`.
 *
 * @example
 * typesOf({ '@type': 'http://schema.org/Product' }) // ['Product']
 */
export function typesOf(node: Node): string[] {
	const type = field(node, '@type');
	return (Array.isArray(type) ? type : [type]).filter((item): item is string => typeof item === 'string').map((item) => item.replace(/^.*[/:#]/, ''));
}

/** Price types that say a price is not the one asked now but the one struck through beside it. */
const LIST = /^(list ?price|strike ?through ?price|msrp|srp|rrp|recommended ?retail ?price)$/;
/** Price types that are neither: what the shop paid, the lowest it may advertise. */
const NEITHER = /^(invoice ?price|minimum ?advertised ?price)$/;

/**
 * An offer's price specifications (an object or an array) as the price asked and the list
 * price: a specification whose `priceType` is `ListPrice`, `StrikethroughPrice`, `SRP` or
 * `MSRP` gives the list price; the first other one (a unit price per kilogram only when
 * there is nothing else) gives the price asked, from `price`, else `minPrice`.
 *
 * @example
 * specifications([{ priceType: 'https://schema.org/ListPrice', price: 99 }, { price: 79 }]) // { price: 79, listPrice: 99 }
 */
export function specifications(value: unknown): { price?: string | number; listPrice?: string | number; priceCurrency?: unknown } {
	const specs = (Array.isArray(value) ? value : [value]).filter(isNode).filter((spec) => scalar(field(spec, 'price') ?? field(spec, 'minPrice')) !== undefined);
	const kind = (spec: Node) =>
		String(named(field(spec, 'priceType')) ?? '')
			.replace(/^.*[/:#]/, '')
			.replace(/[-_]/g, ' ')
			.toLowerCase();
	const listed = specs.find((spec) => LIST.test(kind(spec)));
	const asked = specs.filter((spec) => !LIST.test(kind(spec)) && !NEITHER.test(kind(spec)));
	const chosen = asked.find((spec) => field(spec, 'referenceQuantity') === undefined) ?? asked[0];
	const result: { price?: string | number; listPrice?: string | number; priceCurrency?: unknown } = {};
	const priceOf = (spec: Node) => scalar(field(spec, 'price') ?? field(spec, 'minPrice'));
	if (chosen) {
		result.price = priceOf(chosen)!;
		result.priceCurrency = field(chosen, 'priceCurrency');
	}
	if (listed) {
		result.listPrice = priceOf(listed)!;
		result.priceCurrency ??= field(listed, 'priceCurrency');
	}
	return result;
}
