import type { AnyNode, Element } from 'domhandler';
import { findAll } from 'domutils';
import { availabilityOf } from './availability.js';
import { currencyRead, statedCurrency, type Found } from './found.js';
import { textOf, valueOf } from './markup.js';
import { parsePrice } from './price.js';
import type { Candidate } from './this-product.js';
import { shownPrice } from './was-now.js';

/** A price element's text longer than this is a block around it, not the price shown. */
const SHORT_TEXT = 60;

/** How one syntax of items in the page's elements (microdata, RDFa) is written. */
export interface Syntax {
	from: 'microdata' | 'rdfa';
	/** What an item is called in `where`: `itemscope`, `typeof`. */
	noun: string;
	/** The schema.org properties an element gives, bare and in lower case (`price`, `pricecurrency`). */
	properties(element: Element): string[];
	isItem(element: Element): boolean;
	/** The item's type, bare (`Product`), or ''. */
	typeOf(element: Element): string;
}

/** Links from a product to other products: their offers are not this page's. */
const OTHER = new Set(['isrelatedto', 'issimilarto', 'isaccessoryorsparepartfor', 'isconsumablefor', 'itemlistelement']);
/** Items whose members are other products. */
const LIST = /^(ItemList|OfferCatalog|ListItem|CollectionPage|SearchResultsPage)$/i;
/** Items that are not a product: an offer, its price specification, the page, the site, a breadcrumb. */
const NOT_PRODUCT = /(Offer|Specification|Page|WebSite|BreadcrumbList|Organization|Rating|Review|Brand|Person|Place)$/i;
const SPECIFICATION = /Specification$/i;
/** How many items up the climb to an offer's product goes. */
const MAX_ITEM_LEVELS = 32;
/** How a product is part of another: its variants, its model. */
const PART = new Set(['hasvariant', 'model']);
/** An item of a type that is no offer, page or the like: a thing offered. An item of no type is none. */
const isProduct = (type: string): boolean => type !== '' && !NOT_PRODUCT.test(type) && !LIST.test(type);
const LIST_PRICE = /(list ?price|strike ?through ?price|msrp|srp|rrp)$/i;

/**
 * The offers in a page's items (microdata or RDFa): the `price` (or `lowPrice`),
 * `priceCurrency` and `availability` properties, one offer per item that holds them, in
 * page order; a price specification's belong to its offer. A value is read from
 * `content`, a link's `href`, a `<data>`'s `value`, a `<time>`'s `datetime`, or else the
 * element's text, which goes through `parsePrice` (`$121.95`). A price struck through
 * (`<del>`, an `old-price`, a "was" before it, a `ListPrice` specification) is the list
 * price; of a property written twice in one item, the first counts. Each offer names its
 * product (the outermost item above it), a candidate for the page's product
 * (`candidates`); one inside a list or linked as related is another product. `scopes`,
 * the page's items in page order when the caller has them, number the items in `where`.
 *
 * @example
 * itemsFound(scanMarkup(document).itemprops, MICRODATA)
 * // [{ from: 'microdata', where: 'itemscope #1 Offer', price: 121.95, currency: '$', … }]
 */
export function itemsFound(elements: readonly Element[], syntax: Syntax, candidates: Candidate[] = [], scopes?: readonly Element[]): Found[] {
	const items = new Map<Element | null, Found>();
	const products = new Map<Element, Candidate>();
	const scopeOf = (element: Element): Element | null => {
		for (let parent = element.parent; parent; parent = parent.parent) if (parent.type === 'tag' && syntax.isItem(parent as Element)) return parent as Element;
		return null;
	};
	// Items are numbered by their place among the page's items: `itemscope #3` is the third on the page.
	let order: Map<Element, number> | undefined;
	const where = (scope: Element | null) => {
		if (!scope) return `${syntax.from === 'rdfa' ? 'property' : 'itemprop'} outside any ${syntax.noun}`;
		order ??= scopes ? new Map(scopes.map((item, i) => [item, i + 1])) : numbered(scope, syntax);
		return `${syntax.noun} #${order.get(scope) ?? '?'}${syntax.typeOf(scope) ? ` ${syntax.typeOf(scope)}` : ''}`;
	};
	// As written (`isRelatedTo`), for `rules test` to show.
	const written = (item: Element, name: string) =>
		`${item.attribs['itemprop'] ?? ''} ${item.attribs['property'] ?? ''}`
			.split(/\s+/)
			.find((token) => token.toLowerCase().endsWith(name))
			?.replace(/^.*[/:#]/, '') ?? name;
	/**
	 * The product an item's offers are of: the outermost product it is a part of, climbing
	 * by the properties that link items (an item with none is an item of its own, however
	 * nested its element). A product that is the value of another product's property (other
	 * than its variants or its model), or of a list, is another product.
	 */
	const productOf = (scope: Element | null): Candidate | undefined => {
		let owner: Element | undefined;
		let other: string | undefined;
		// Items nest a few deep on real pages; a hostile page's 10,000 would make this climb, once per item, quadratic.
		for (let item = scope, level = 0; item && level < MAX_ITEM_LEVELS; level++) {
			const type = syntax.typeOf(item);
			if (LIST.test(type)) {
				other = `inside ${type}`;
				break;
			}
			if (isProduct(type)) owner = item;
			const links = syntax.properties(item);
			const parent = links.length > 0 ? scopeOf(item) : null;
			if (!parent) break;
			const link =
				links.find((name) => OTHER.has(name)) ??
				(owner === item && isProduct(syntax.typeOf(parent)) && !links.some((name) => PART.has(name)) ? links[0] : undefined);
			if (link !== undefined && owner) {
				other = written(item, link);
				break;
			}
			item = parent;
		}
		if (!owner) return other === undefined || !scope ? undefined : candidateFor(scope, other);
		return candidateFor(owner, other);
	};
	const candidateFor = (element: Element, other: string | undefined): Candidate => {
		let candidate = products.get(element);
		if (!candidate) {
			const id = element.attribs['itemid'] ?? element.attribs['resource'] ?? element.attribs['about'];
			candidate = { from: syntax.from, where: where(element), ids: id ? [id] : [], element, ...(other !== undefined ? { other } : {}) };
			products.set(element, candidate);
			candidates.push(candidate);
		}
		return candidate;
	};
	const keys = new Map<Element | null, string[]>();
	// Price specifications whose priceType says list price, known before their prices are read.
	const listed = new Set(
		elements.filter((element) => syntax.properties(element).includes('pricetype') && LIST_PRICE.test(valueOf(element).value.trim())).map(scopeOf),
	);
	for (const element of elements) {
		for (const property of syntax.properties(element)) {
			let scope = scopeOf(element);
			if ((property === 'url' || property === 'sku') && scope) {
				// What names an offer or its variant, for a URL's `?variant=` to find it by.
				const value = valueOf(element).value.trim();
				if (value) keys.set(scope, [...(keys.get(scope) ?? []), value]);
			}
			if (property === 'name' || property === 'url') {
				const product = scope && isProduct(syntax.typeOf(scope)) ? productOf(scope) : undefined;
				if (product?.element !== scope || !product) continue;
				const { value } = valueOf(element);
				if (property === 'name') product.name ??= value;
				else if (value) product.ids.push(value);
				continue;
			}
			if (!['price', 'lowprice', 'pricecurrency', 'availability'].includes(property)) continue;
			const spec = scope && SPECIFICATION.test(syntax.typeOf(scope)) ? scope : undefined;
			if (spec) scope = scopeOf(spec);
			let item = items.get(scope);
			if (!item) {
				const product = productOf(scope);
				items.set(scope, (item = { from: syntax.from, where: where(scope), written: {}, ...(product ? { product } : {}) }));
			}
			read(item, property, element, scope, spec !== undefined && listed.has(spec));
		}
	}
	for (const [scope, item] of items) {
		const named = scope ? [...(keys.get(scope) ?? []), ...(keys.get(scopeOf(scope)) ?? [])] : [];
		if (named.length > 0) item.keys = named;
		// A price marked as struck through and nothing else: the mark was a theme's name for the price ("price--regular").
		if (item.price === undefined && item.listPrice !== undefined && item.problem === undefined) {
			item.price = item.listPrice;
			delete item.listPrice;
		}
	}
	// An item with only a currency stays: a page may name it in an item of its own.
	return [...items.values()].filter(
		(item) => item.price !== undefined || item.availability !== undefined || item.currency !== undefined || item.problem !== undefined,
	);
}

function read(item: Found, property: string, element: Element, scope: Element | null, listSpec: boolean): void {
	const { value } = valueOf(element);
	if (property === 'price' || property === 'lowprice') {
		const shown = shownPrice(element, scope, listSpec);
		if (shown.listPrice && item.listPrice === undefined) item.listPrice = shown.listPrice.amount;
		if (item.written.price !== undefined || (shown.price === undefined && shown.problem === undefined)) return;
		item.written.price = value;
		if (shown.problem !== undefined) {
			// Refused, and the item's first price all the same: the offer reads no price from it.
			item.problem = shown.problem;
			return;
		}
		item.price = shown.price!.amount;
		// A `content` price says no currency; the text shown beside it may (`<span content="253">253.0 грн</span>`).
		const written = shown.price!.currency ?? (valueOf(element).text ? undefined : shownCurrency(element));
		const currency = item.written.currency === undefined ? (item.currency ?? written) : statedCurrency(item.currency, written);
		if (currency !== undefined) item.currency = currency;
	} else if (property === 'pricecurrency') {
		const { currency, problem } = currencyRead(value);
		if ((currency === undefined && problem === undefined) || item.written.currency !== undefined) return;
		item.written.currency = value;
		// Not read: the price's text may still name it.
		if (problem !== undefined) return void (item.currencyProblem = problem);
		// The property names it better than a symbol in the price's text, unless it is no code and the text's is.
		item.currency = statedCurrency(currency, item.currency)!;
	} else {
		const availability = availabilityOf(value);
		if (availability === undefined || item.written.availability !== undefined) return;
		item.availability = availability;
		item.written.availability = value;
	}
}

/** The currency a price element's own short text names (`253.0 грн` → UAH), or undefined. */
function shownCurrency(element: Element): string | undefined {
	const text = textOf(element);
	return text.length > SHORT_TEXT ? undefined : parsePrice(text)?.currency;
}

function numbered(element: Element, syntax: Syntax): Map<Element, number> {
	let root: AnyNode = element;
	while (root.parent) root = root.parent;
	return new Map(findAll((item) => syntax.isItem(item), [root]).map((item, i) => [item, i + 1]));
}
