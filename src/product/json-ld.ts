import { amountOf } from './amount.js';
import { availabilityOf } from './availability.js';
import { currencyOf, type Found } from './found.js';
import { priceRead } from './refused.js';

/**
 * Links to other products: their offers are not this page's (a "similar items" block, the
 * product group a variant page belongs to, with every variant's price).
 */
const ELSEWHERE = new Set(['isrelatedto', 'issimilarto', 'isaccessoryorsparepartfor', 'isconsumablefor', 'isvariantof', 'review', 'reviews']);

/** Price specifications that are not the price asked: a list price struck through, a maker's suggestion. */
const NOT_ASKED = /(ListPrice|StrikethroughPrice|MSRP|SRP|InvoicePrice|MinimumAdvertisedPrice)$/i;

/**
 * How deep the walk goes into a block's objects and arrays. A product's offers sit a few
 * levels down (`@graph`, `hasVariant`, `offers`, `priceSpecification`); the walk recurses
 * once a level, so a block nested 10,000 deep overflowed the stack and failed the page.
 */
export const MAX_JSON_LD_DEPTH = 64;

/**
 * The offers in a page's JSON-LD blocks, in page order: every `offers` (an object or an
 * array) of any node, and every node typed `Offer` or `AggregateOffer`, wherever they sit
 * (`@graph`, arrays of blocks, a `ProductGroup`'s `hasVariant`), read with keys in any case
 * (`Offers`, `Price`). A block that is not JSON, even after dropping HTML comments, trailing
 * commas and raw line breaks in strings, is skipped; the others still count. What lies
 * deeper than `MAX_JSON_LD_DEPTH` levels is not read, and `problems` says where a block
 * was cut; the rest of the block, and the other blocks, still count.
 *
 * @example
 * jsonLdFound(['{"@type":"Product","offers":{"price":"19.99","priceCurrency":"EUR"}}'])
 * // [{ from: 'json-ld', where: 'script #1 Product.offers', price: 19.99, currency: 'EUR', … }]
 */
export function jsonLdFound(blocks: readonly string[], problems: string[] = []): Found[] {
	const found: Found[] = [];
	const seen = new Set<string>();
	blocks.forEach((text, i) => {
		const value = parseBlock(text);
		const into: Walk = { found, seen, script: `script #${i + 1}`, cut: false };
		if (value !== undefined) walk(value, '', into, 0);
		if (into.cut) problems.push(`${into.script}: nested deeper than ${MAX_JSON_LD_DEPTH} levels, read no deeper`);
	});
	return found;
}

/**
 * A JSON-LD block's value, forgiving what shops commonly get wrong; undefined when it is
 * not JSON even so.
 *
 * @example
 * parseBlock('<!-- {"a": [1, 2,],} -->') // { a: [1, 2] }
 */
export function parseBlock(text: string): unknown {
	const bare = text
		.trim()
		.replace(/^<!--|-->$/g, '')
		.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, '');
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

interface Walk {
	found: Found[];
	seen: Set<string>;
	script: string;
	/** Something lay deeper than the walk goes. */
	cut: boolean;
}

type Node = Record<string, unknown>;

function walk(value: unknown, path: string, into: Walk, depth: number): void {
	if (typeof value !== 'object' || value === null) return;
	if (depth >= MAX_JSON_LD_DEPTH) {
		into.cut = true;
		return;
	}
	if (Array.isArray(value)) {
		value.forEach((item, i) => walk(item, `${path}[${i}]`, into, depth + 1));
		return;
	}
	if (!isNode(value)) return;
	const types = typesOf(value);
	const label = types.length > 0 ? `${path ? `${path} ` : ''}${types[0]}` : path;
	if (types.some((type) => /^(aggregate)?offer$/i.test(type))) {
		offer(value, label, into, depth);
		return;
	}
	let offers = false;
	for (const [key, child] of Object.entries(value)) {
		const name = key.toLowerCase();
		if ((name.startsWith('@') && name !== '@graph') || ELSEWHERE.has(name)) continue;
		const at = `${label}${label ? '.' : ''}${key}`;
		if (name === 'offers') {
			offers = true;
			if (Array.isArray(child)) child.forEach((item, i) => isNode(item) && offer(item, `${at}[${i}]`, into, depth + 2));
			else if (isNode(child)) offer(child, at, into, depth + 1);
		} else walk(child, at, into, depth + 1);
	}
	// A product that carries its price itself, with no offers.
	if (!offers && types.some((type) => /^product$/i.test(type)) && field(value, 'price') !== undefined) offer(value, label, into, depth);
}

function offer(node: Node, where: string, into: Walk, depth: number): void {
	// The same offer written twice under one @id (in the graph and again in its product) is one offer.
	const id = field(node, '@id');
	if (typeof id === 'string' && id !== '') {
		if (into.seen.has(id)) return;
		into.seen.add(id);
	}
	const asked = field(node, 'price') ?? field(node, 'lowPrice');
	const spec = asked === undefined ? specification(field(node, 'priceSpecification')) : undefined;
	const written = asked ?? spec?.price ?? undefined;
	if (written === undefined || written === null) {
		// An AggregateOffer without a price of its own: its offers have the prices.
		const inner = field(node, 'offers');
		if (inner !== undefined) walk({ offers: inner }, where, into, depth);
	}
	const { amount, problem } = priceRead(written, amountOf);
	const code = [field(node, 'priceCurrency'), spec?.priceCurrency].find((value) => currencyOf(value) !== undefined);
	const currency = currencyOf(code) ?? amount?.currency;
	const stated = named(field(node, 'availability'));
	const availability = stated === undefined ? undefined : availabilityOf(stated);
	if (amount === undefined && availability === undefined && problem === undefined) return;
	const shown: Found['written'] = {};
	if (written !== undefined && written !== null) shown.price = String(written);
	if (currency !== undefined) shown.currency = code === undefined ? currency : String(code);
	if (stated !== undefined) shown.availability = stated;
	into.found.push({
		from: 'json-ld',
		where: `${into.script}${where ? ` ${where}` : ''}`,
		...(amount !== undefined ? { price: amount.amount } : {}),
		...(currency !== undefined ? { currency } : {}),
		...(availability !== undefined ? { availability } : {}),
		written: shown,
		...(problem !== undefined ? { problem } : {}),
	});
}

/** The first price specification (an object or an array) that gives the price asked (`price`, else `minPrice`), not a list price. */
function specification(value: unknown): { price?: unknown; priceCurrency?: unknown } | undefined {
	const specs = (Array.isArray(value) ? value : [value]).filter(isNode);
	const priceOf = (spec: Node) => field(spec, 'price') ?? field(spec, 'minPrice');
	const asked = specs.find((spec) => priceOf(spec) !== undefined && !NOT_ASKED.test(String(field(spec, 'priceType') ?? '')));
	return asked && { price: priceOf(asked), priceCurrency: field(asked, 'priceCurrency') };
}

/** An enumeration value as JSON-LD writes it: a string, `{"@id": "schema:InStock"}`, or a list of either (the first). */
function named(value: unknown): string | undefined {
	const first = Array.isArray(value) ? value[0] : value;
	if (typeof first === 'string') return first;
	const id = isNode(first) ? field(first, '@id') : undefined;
	return typeof id === 'string' ? id : undefined;
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key in any case: shops write `Offers`, `Price`, `PriceCurrency`. */
function field(node: Node, name: string): unknown {
	if (node[name] !== undefined) return node[name];
	const lower = name.toLowerCase();
	for (const key of Object.keys(node)) if (key.toLowerCase() === lower) return node[key];
	return undefined;
}

/** `@type` as a list of bare names: `"Product"`, `["Product", "Car"]`, `"http://schema.org/Product"`, `"schema:Offer"`. */
function typesOf(node: Node): string[] {
	const type = field(node, '@type');
	return (Array.isArray(type) ? type : [type]).filter((item): item is string => typeof item === 'string').map((item) => item.replace(/^.*[/:#]/, ''));
}
