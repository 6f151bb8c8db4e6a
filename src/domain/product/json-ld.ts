import { amountOf } from './amount.js';
import { availabilityOf } from './availability.js';
import { currencyRead, statedCurrency, type Found } from './found.js';
import { field, isNode, named, type Node, parseBlock, scalar, specifications, typesOf } from './json-ld-values.js';
import { priceRead } from './refused.js';
import type { Candidate } from './this-product.js';

export { parseBlock } from './json-ld-values.js';

/** Links from a product to other products: their offers are not this page's. */
const OTHER = new Set(['isrelatedto', 'issimilarto', 'isaccessoryorsparepartfor', 'isconsumablefor', 'itemlistelement']);
/** How a product is part of another: its variants, its model. */
const PART = new Set(['hasvariant', 'model']);
/** Links not followed at all: the product group a variant page belongs to (every variant's price), reviews. */
const SKIPPED = new Set(['isvariantof', 'review', 'reviews']);
/** Types whose members are other products: a "you may also like" list, a category page. */
const LIST = /^(ItemList|OfferCatalog|ListItem|BreadcrumbList|CollectionPage|SearchResultsPage)$/i;
const OFFER = /^(aggregate)?offer$/i;
/** A thing with offers is offered; these are products even before their offers are seen. */
const PRODUCT = /^(Product|ProductGroup|ProductModel|IndividualProduct|SomeProducts|Vehicle|Car|Motorcycle|Book|DietarySupplement|Drug)$/i;

/**
 * How deep the walk goes into a block's objects and arrays. A product's offers sit a few
 * levels down (`@graph`, `hasVariant`, `offers`, `priceSpecification`); the walk recurses
 * once a level, so a block nested 10,000 deep overflowed the stack and failed the page.
 */
export const MAX_JSON_LD_DEPTH = 64;

/**
 * The offers in a page's JSON-LD blocks, in page order: every `offers` (an object, an
 * array, or a reference by `@id` to a node elsewhere on the page) of any node, and every
 * node typed `Offer` or `AggregateOffer`, wherever they sit (`@graph`, arrays of blocks, a
 * `ProductGroup`'s `hasVariant`), read with keys in any case (`Offers`, `Price`). Each
 * offer names its product: the outermost product above it, a candidate (`candidates`) for
 * the page's product; one inside an `ItemList` or linked as related, similar or an
 * accessory is another product. A block that is not JSON, even after dropping wrappers,
 * trailing commas and raw line breaks in strings, is skipped; the others still count. What
 * lies deeper than `MAX_JSON_LD_DEPTH` levels is not read, and `problems` says where a
 * block was cut.
 *
 * @example
 * jsonLdFound(['{"@type":"Product","offers":{"price":"19.99","priceCurrency":"EUR"}}'])
 * // [{ from: 'json-ld', where: 'script #1 Product.offers', price: 19.99, currency: 'EUR', … }]
 */
export function jsonLdFound(blocks: readonly string[], problems: string[] = [], candidates: Candidate[] = []): Found[] {
	const values = blocks.map(parseBlock);
	const ids = new Map<string, Node>();
	const referenced = new Set<string>();
	for (const value of values) index(value, ids, referenced, 0);
	const found: Found[] = [];
	const products = new Map<Node, Candidate>();
	const seen = new Set<string>();
	values.forEach((value, i) => {
		const into: Walk = { found, seen, ids, referenced, products, candidates, script: `script #${i + 1}`, cut: false };
		if (value !== undefined) walk(value, '', into, 0, {});
		if (into.cut) problems.push(`${into.script}: nested deeper than ${MAX_JSON_LD_DEPTH} levels, read no deeper`);
	});
	return found;
}

interface Walk {
	found: Found[];
	seen: Set<string>;
	/** The page's nodes by `@id`, for an `offers` written as a reference. */
	ids: Map<string, Node>;
	/** The `@id`s some `offers` refers to: read there, with their product, not where they stand alone. */
	referenced: Set<string>;
	products: Map<Node, Candidate>;
	candidates: Candidate[];
	script: string;
	/** Something lay deeper than the walk goes. */
	cut: boolean;
}

/** Where in the page's products the walk is. */
interface Context {
	/** The outermost product above: the one the offers are of. */
	product?: Candidate;
	/** The nearest product above (a variant), whose `url`, `@id` and `sku` name its offers. */
	nearest?: Node;
	/** Inside a list or a link to other products: why. */
	other?: string;
}

function index(value: unknown, ids: Map<string, Node>, referenced: Set<string>, depth: number): void {
	if (typeof value !== 'object' || value === null || depth >= MAX_JSON_LD_DEPTH) return;
	if (Array.isArray(value)) return value.forEach((item) => index(item, ids, referenced, depth + 1));
	const id = field(value as Node, '@id');
	if (typeof id === 'string' && Object.keys(value).length > 1 && !ids.has(id)) ids.set(id, value as Node);
	for (const [key, child] of Object.entries(value)) {
		if (key.toLowerCase() === 'offers')
			for (const item of Array.isArray(child) ? child : [child])
				if (isNode(item) && Object.keys(item).length === 1 && typeof item['@id'] === 'string') referenced.add(item['@id']);
		index(child, ids, referenced, depth + 1);
	}
}

function walk(value: unknown, path: string, into: Walk, depth: number, context: Context): void {
	if (typeof value !== 'object' || value === null) return;
	if (depth >= MAX_JSON_LD_DEPTH) {
		into.cut = true;
		return;
	}
	if (Array.isArray(value)) {
		value.forEach((item, i) => walk(item, `${path}[${i}]`, into, depth + 1, context));
		return;
	}
	if (!isNode(value)) return;
	const types = typesOf(value);
	const label = types.length > 0 ? `${path ? `${path} ` : ''}${types[0]}` : path;
	if (types.some((type) => OFFER.test(type))) {
		const id = field(value, '@id');
		// Read where an `offers` refers to it, as that product's.
		if (!(typeof id === 'string' && into.referenced.has(id) && context.nearest === undefined))
			offer(value, label, into, depth, offeredBy(value, label, into, context));
		return;
	}
	let here = context;
	if (types.some((type) => LIST.test(type))) here = { other: context.other ?? `inside ${types.find((type) => LIST.test(type))}` };
	else if (types.some((type) => PRODUCT.test(type)) || field(value, 'offers') !== undefined)
		here = { ...context, product: context.product ?? candidateOf(value, label, into, context.other), nearest: value };
	let offers = false;
	for (const [key, child] of Object.entries(value)) {
		const name = key.toLowerCase();
		if ((name.startsWith('@') && name !== '@graph') || SKIPPED.has(name)) continue;
		const at = `${label}${label ? '.' : ''}${key}`;
		if (name === 'offers') {
			offers = true;
			const list = Array.isArray(child) ? child : [child];
			list.forEach((item, i) => {
				const node = isNode(item) ? resolved(item, into) : undefined;
				if (node) offer(node, Array.isArray(child) ? `${at}[${i}]` : at, into, depth + 1, here);
			});
		} else {
			// What a product links to, other than its variants and its model, is another product (`isRelatedTo`, a theme's `related`).
			const other = OTHER.has(name) || (here.nearest === value && !PART.has(name));
			walk(child, at, into, depth + 1, other ? { other: here.other ?? key } : here);
		}
	}
	// A product that carries its price itself, with no offers.
	if (!offers && here.nearest === value && field(value, 'price') !== undefined) offer(value, label, into, depth, here);
}

/** A node written as a reference (`{"@id": "#offer"}`) as the node it refers to. */
function resolved(node: Node, into: Walk): Node {
	const id = field(node, '@id');
	return Object.keys(node).length === 1 && typeof id === 'string' ? (into.ids.get(id) ?? node) : node;
}

function candidateOf(node: Node, label: string, into: Walk, other: string | undefined): Candidate {
	const known = into.products.get(node);
	if (known) return known;
	const name = scalar(field(node, 'name'));
	// `mainEntityOfPage` names the page the product is the subject of: a URL, or a node with its `@id`.
	const page = field(node, 'mainEntityOfPage');
	const ids = [field(node, 'url'), field(node, '@id'), isNode(page) ? field(page, '@id') : page].filter((value): value is string => typeof value === 'string');
	const candidate: Candidate = {
		from: 'json-ld',
		where: `${into.script}${label ? ` ${label}` : ''}`,
		ids,
		...(name !== undefined ? { name: String(name) } : {}),
		...(other !== undefined ? { other } : {}),
	};
	into.products.set(node, candidate);
	into.candidates.push(candidate);
	return candidate;
}

/** The context of an offer met on its own: the product its `itemOffered` names, if any; inside a list, another product's. */
function offeredBy(node: Node, label: string, into: Walk, context: Context): Context {
	if (context.product) return context;
	if (context.other !== undefined) return { ...context, product: candidateOf(node, label, into, context.other) };
	const item = field(node, 'itemOffered');
	const product = isNode(item) ? resolved(item, into) : undefined;
	return product ? { product: candidateOf(product, `${label}.itemOffered`, into, undefined), nearest: product } : context;
}

function offer(node: Node, where: string, into: Walk, depth: number, context: Context): void {
	if (depth >= MAX_JSON_LD_DEPTH) {
		into.cut = true;
		return;
	}
	// The same offer written twice under one @id (in the graph and again in its product) is one offer.
	const id = field(node, '@id');
	if (typeof id === 'string' && id !== '') {
		if (into.seen.has(id)) return;
		into.seen.add(id);
	}
	const specs = specifications(field(node, 'priceSpecification'));
	const written = scalar(field(node, 'price')) ?? scalar(field(node, 'lowPrice')) ?? specs.price;
	if (written === undefined) {
		// An AggregateOffer without a price of its own: its offers have the prices.
		const inner = field(node, 'offers');
		const list = Array.isArray(inner) ? inner : [inner];
		list.forEach((item, i) => isNode(item) && offer(resolved(item, into), `${where}.offers${Array.isArray(inner) ? `[${i}]` : ''}`, into, depth + 1, context));
	}
	const { amount, problem } = priceRead(written, amountOf);
	const list = specs.listPrice === undefined ? undefined : priceRead(specs.listPrice, amountOf).amount;
	const codes = [scalar(field(node, 'priceCurrency')), scalar(specs.priceCurrency)];
	const reads = codes.map(currencyRead);
	const at = reads.findIndex((read) => read.currency !== undefined);
	const unread = reads.findIndex((read) => read.problem !== undefined);
	// A code that is read is shown as written; else one that is not, said not read.
	const code = codes[at >= 0 ? at : unread];
	const currency = statedCurrency(reads[at]?.currency, amount?.currency);
	const stated = named(field(node, 'availability'));
	const availability = stated === undefined ? undefined : availabilityOf(stated);
	if (amount === undefined && availability === undefined && problem === undefined) return;
	const shown: Found['written'] = {};
	if (written !== undefined) shown.price = String(written);
	if (currency !== undefined || code !== undefined) shown.currency = code === undefined ? currency : String(code);
	if (stated !== undefined) shown.availability = stated;
	const keys = [node, context.nearest]
		.flatMap((item) => (item ? ['url', '@id', 'sku'].map((name) => scalar(field(item, name))) : []))
		.filter((key): key is string | number => key !== undefined);
	into.found.push({
		from: 'json-ld',
		where: `${into.script}${where ? ` ${where}` : ''}`,
		...(amount !== undefined ? { price: amount.amount } : {}),
		...(list !== undefined ? { listPrice: list.amount } : {}),
		...(currency !== undefined ? { currency } : {}),
		...(availability !== undefined ? { availability } : {}),
		written: shown,
		...(problem !== undefined ? { problem } : {}),
		...(unread >= 0 ? { currencyProblem: reads[unread]!.problem! } : {}),
		...(context.product ? { product: context.product } : {}),
		...(keys.length > 0 ? { keys: keys.map(String) } : {}),
	});
}
