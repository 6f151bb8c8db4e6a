import type { Element } from 'domhandler';
import type { Found } from './found.js';
import type { OfferSource } from '../../store/model/product.js';

/** A product one markup names: what the page may be about, or another product it shows. */
export interface Candidate {
	from: OfferSource;
	/** Where on the page: `script #1 @graph[2] Product`, `itemscope #3 Product`. */
	where: string;
	name?: string;
	/** Its `url` and `@id` as written (an `@id` may be relative: `#product`). */
	ids: string[];
	/** Why it is another product, never this page's: `inside ItemList`, `isRelatedTo`. */
	other?: string;
	/** The microdata or RDFa element that holds it. */
	element?: Element;
}

/** What the page says about itself, beside its markup. */
export interface PageFacts {
	/** The URL the page was fetched from. */
	url?: string | undefined;
	/** `<link rel="canonical">` and `og:url`. */
	canonical: string[];
	/** `og:title`, `<title>` and the `<h1>`s' text. */
	titles: string[];
	h1s: Element[];
	/** Forms that put the product in a cart (`/cart/add`, WooCommerce's `form.cart`, Magento's `product_addtocart_form`). */
	carts: Element[];
}

/** A candidate, whether it was taken as this page's product, and why. */
export interface Choice {
	candidate: Candidate;
	taken: boolean;
	why: string;
}

/**
 * The offers that are this page's: of each markup's products, the one the page is about,
 * its offers and those of no product named; other products' offers are left out. Products
 * inside an `ItemList` or linked as related, similar or accessories are never this page's.
 * Of the others, the first with the most of: its `url` or `@id` is the page's URL or its
 * canonical; its name is the page's title or `<h1>`; its element holds the page's `<h1>` or
 * its add-to-cart form; it has offers.
 *
 * @example
 * thisProduct(candidates, found, facts).kept // the main product's offers, not the related products'
 */
export function thisProduct(candidates: readonly Candidate[], found: readonly Found[], facts: PageFacts): { kept: Found[]; choices: Choice[] } {
	const choices: Choice[] = [];
	const chosen = new Set<Candidate>();
	const offered = new Set(found.filter((item) => item.price !== undefined || item.availability !== undefined).map((item) => item.product));
	for (const from of new Set(candidates.map((candidate) => candidate.from))) {
		const own = candidates.filter((candidate) => candidate.from === from);
		const scored = own
			.filter((candidate) => candidate.other === undefined)
			.map((candidate) => ({ candidate, ...score(candidate, offered.has(candidate), facts) }));
		const byCandidate = new Map(scored.map((item) => [item.candidate, item]));
		const best = scored.reduce<(typeof scored)[number] | undefined>((top, item) => (!top || item.points > top.points ? item : top), undefined);
		// The same product written twice (a theme's block and a plugin's) is one: its offers all count.
		// So are products the page names as equally its own (one Product block per size, each named as the page is).
		const equal = (item: (typeof scored)[number]) => best !== undefined && best.named && item.named && item.points === best.points;
		const twins = new Set(
			best ? scored.filter((item) => item !== best && (sameProduct(item.candidate, best.candidate, facts) || equal(item))).map((item) => item.candidate) : [],
		);
		if (best) for (const candidate of [best.candidate, ...twins]) chosen.add(candidate);
		for (const candidate of own) {
			const item = byCandidate.get(candidate);
			const twin = twins.has(candidate);
			const why =
				candidate.other !== undefined
					? `another product's (${candidate.other})`
					: item === best
						? item!.reasons.join(', ') || 'the first'
						: twin
							? `the same product as ${best!.candidate.where}`
							: `not the page's: ${best!.candidate.where} is more so`;
			choices.push({ candidate, taken: chosen.has(candidate), why });
		}
	}
	return { kept: found.filter((item) => item.product === undefined || chosen.has(item.product)), choices };
}

/** A candidate's points, why, and whether its url or name is the page's. */
function score(candidate: Candidate, offers: boolean, facts: PageFacts): { points: number; reasons: string[]; named: boolean } {
	const reasons: string[] = [];
	let points = 0;
	// An `@id` of a fragment alone (`#product`) names a node, not a page: every node of the page would match.
	if (candidate.ids.some((id) => !id.startsWith('#') && pageIds(facts).some((page) => sameUrl(id, page, facts.url ?? facts.canonical[0])))) {
		points += 8;
		reasons.push("its url is the page's");
	}
	const match = candidate.name === undefined ? 0 : Math.max(0, ...facts.titles.map((title) => nameMatch(candidate.name!, title)));
	if (match > 0) {
		points += match === 2 ? 4 : 3;
		reasons.push(match === 2 ? "its name is the page's title" : "its name holds the page's title");
	}
	const named = points > 0;
	if (candidate.element) {
		if (facts.h1s.some((h1) => holds(candidate.element!, h1))) {
			points += 2;
			reasons.push("it holds the page's <h1>");
		}
		if (facts.carts.some((cart) => holds(candidate.element!, cart))) {
			points += 2;
			reasons.push('it holds the add-to-cart form');
		}
	}
	if (offers) {
		points += 1;
		reasons.push('it has offers');
	}
	return { points, reasons, named };
}

/** Two candidates that name the same product: the same `url` or `@id`, or the same name. */
function sameProduct(a: Candidate, b: Candidate, facts: PageFacts): boolean {
	if (a.name !== undefined && b.name !== undefined && fold(a.name) !== '' && fold(a.name) === fold(b.name)) return true;
	const base = facts.url ?? facts.canonical[0] ?? 'http://page.invalid/';
	const hrefs = new Set<string | undefined>(a.ids.map((id) => parsed(id, base)?.href).filter((href) => href !== undefined));
	return b.ids.some((id) => hrefs.has(parsed(id, base)?.href));
}

const pageIds = (facts: PageFacts): string[] => [...(facts.url !== undefined ? [facts.url] : []), ...facts.canonical];

/** Two URLs for the same page: host (without `www.`), path (without a trailing `/`) and query (tracking and variant aside) alike; a fragment does not count. */
function sameUrl(id: string, page: string, base: string | undefined): boolean {
	const a = parsed(id, base);
	const b = parsed(page, base);
	if (!a || !b) return false;
	const key = (url: URL) => url.hostname.toLowerCase().replace(/^www\./, '') + url.pathname.replace(/\/+$/, '');
	if (key(a) !== key(b)) return false;
	const query = (url: URL) =>
		[...url.searchParams]
			.filter(([name]) => !/^(utm_.*|variant|gclid|fbclid|ref)$/i.test(name))
			.sort()
			.join('&');
	return query(a) === '' || query(b) === '' || query(a) === query(b);
}

function parsed(url: string, base: string | undefined): URL | undefined {
	try {
		return new URL(url, base);
	} catch {
		return undefined;
	}
}

/**
 * How well a name is the page's, once folded: 2 when the title holds it ("Kettle 2000" in
 * "Kettle 2000 | Shop"), 1 when it holds the title ("Wool Coat - S" of a page titled "Wool
 * Coat", as a size's block is named, but also "Wool Coat Hanger"), 0 when neither.
 */
function nameMatch(name: string, title: string): number {
	const a = fold(name);
	const b = fold(title);
	if (a.length < 3 || b.length < 3) return 0;
	return b.includes(a) ? 2 : a.includes(b) ? 1 : 0;
}

const fold = (text: string): string =>
	// Accents off only where there are any: most names are ASCII, and NFKD is slow.
	(/[^\x00-\x7f]/.test(text) ? text.normalize('NFKD') : text)
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();

const holds = (outer: Element, inner: Element): boolean => {
	for (let node: Element | null = inner; node; node = node.parent as Element | null) if (node === outer) return true;
	return false;
};

/**
 * The variant a page's URL names (Shopify's `?variant=123`), or undefined.
 *
 * @example
 * variantOf('https://shop.example/products/hat?variant=4242') // '4242'
 */
export function variantOf(url: string | undefined): string | undefined {
	// Only a query that says `variant` (or escapes a letter of it) can name one: most page URLs are not parsed at all.
	if (url === undefined || (!url.includes('variant') && !url.includes('%'))) return undefined;
	const value = parsed(url, undefined)?.searchParams.get('variant') ?? undefined;
	return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * Whether an offer is the variant named: one of its keys is it (a `sku` of `4242`), ends
 * with it after a non-digit (`…/variants/4242`, `#variant-4242`), or is a URL naming it.
 *
 * @example
 * isVariant({ keys: ['https://shop.example/products/hat?variant=4242'] } as Found, '4242') // true
 */
export function isVariant(item: Found, variant: string): boolean {
	return (item.keys ?? []).some(
		(key) => key === variant || variantOf(key) === variant || (key.endsWith(variant) && /\D/.test(key.charAt(key.length - variant.length - 1))),
	);
}
