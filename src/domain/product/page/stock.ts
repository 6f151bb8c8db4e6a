import type { AnyNode, Element, Text } from 'domhandler';
import { findAll } from 'domutils';
import type { Found } from '../found.js';
import { readStatement, type Statement } from '../statement.js';
import type { Availability } from '../../../store/model/product.js';
import { byNearness, inside, nearestPlace, treeDistance } from './nearest.js';
import { controlText } from './controls.js';
import type { PagePlace } from './scan.js';
import { describeElement, ownText, shortText } from './text.js';
import { fold } from './words.js';

/** A buy area's text longer than this is not read for stock words: it is the page, not the button's surroundings. */
const AREA_TEXT = 400;
/** Nor one of more nodes than this. */
const AREA_NODES = 1000;
/** A stock note is read as a statement up to this length ("We don't know when or if this item will be back in stock."). */
const NOTE_TEXT = 200;
/** A stock note this many steps from an enabled buy button or nearer speaks for the same product: its words, more specific, win over the button. */
const NEAR_BUTTON = 5;

/**
 * What a page's buy area says of its product's availability, without structured data or a
 * selector. Stock words are read as statements (`readStatement`: "isn't in stock" is
 * OutOfStock, "Notify me when available" too, "Pre-order" PreOrder). The buy button
 * nearest the title decides: saying a state ("Sold out", "Pre-order") it gives that;
 * disabled it is out of stock; enabled, it is in stock unless its surroundings (its form,
 * else its parent's block) or a stock note at most `NEAR_BUTTON` steps from it say
 * otherwise ("sold out", "nicht verfügbar", "Only 2 left"): the nearer and more specific
 * words win over an enabled button, and `where` says so. With no buy button, the stock
 * note nearest the title that states something says it (an element whose class says
 * stock, or one of `notes` whose short text says "Out of stock" or "In stock: 6"), if
 * there is one.
 *
 * @example
 * pageAvailability([button], scan.stocks, [title], scan.notes)
 * // { from: 'page', where: 'button.add-to-cart, the buy button, disabled', availability: 'OutOfStock', … }
 */
export function pageAvailability(
	buttons: readonly PagePlace[],
	stocks: readonly PagePlace[],
	anchors: readonly PagePlace[],
	notes: readonly PagePlace[] = [],
): Found | undefined {
	const button = nearestPlace(
		buttons.filter((place) => !place.elsewhere),
		anchors,
	);
	const candidates = [...stocks, ...notes].filter((candidate) => !candidate.elsewhere);
	const named = new Set(stocks);
	if (button) {
		const says = controlText(button.element);
		const said = notNow(says);
		if (said) return found(`${describeElement(button.element)}, the buy button${how(said)}`, said.availability, says);
		if (disabled(button.element)) return found(`${describeElement(button.element)}, the buy button, disabled`, 'OutOfStock', says);
		const area = buyArea(button.element);
		const note = areaNote(button.element, area);
		if (note) return found(`${note.where}, beside the buy button${how(note.said)}`, note.said.availability, note.text);
		// Outside the area, read whole above (a size's "sold out" there is that size's).
		const near = nearNote(
			candidates.filter((place) => !area || (place.element !== area && !inside(place.element, area))),
			named,
			button,
		);
		if (near)
			return found(
				`${describeElement(near.place.element)}, a stock note ${near.steps} steps from the buy button (${describeElement(button.element)}, enabled): ` +
					`its words win over the button${how(near.said)}`,
				near.said.availability,
				near.text,
			);
		return found(`${describeElement(button.element)}, the buy button, enabled`, 'InStock', says);
	}
	// The nearest that says a state: the candidates ranked first and their words read
	// nearest first, since most pages have hundreds of short texts and one stock note.
	for (const place of byNearness(candidates, anchors)) {
		const note = noteOf(place, named);
		if (note) return found(`${describeElement(place.element)}, a stock note${how(note.said)}`, note.said.availability, note.text);
	}
	return undefined;
}

const found = (where: string, availability: Availability, written: string): Found => ({
	from: 'page',
	where,
	availability,
	written: { availability: written },
});

/** "Not available for VAT relief", "unavailable in stores": a service or a place the product is not for, not its stock. */
const NOT_FOR = /\b(not available|unavailable|nicht verfugbar|non disponibile|no disponible|indisponible) (for|in|on|to|with|as|fur|pour|en|para|per|con)\b/g;

/** What a text states, where that is not InStock (the product cannot be had now, or only so: pre-order, a few left), or undefined. */
function notNow(text: string): Statement | undefined {
	const said = readStatement(fold(text).replace(NOT_FOR, ' '));
	return said && said.availability !== 'InStock' ? said : undefined;
}

/** How the words around the phrase were read, for `where`: `, "in stock" negated by "isn't"`. */
const how = (said: Statement): string => (said.read ? `, "${said.phrase}" ${said.read}` : '');

const disabled = (element: Element): boolean =>
	element.attribs['disabled'] !== undefined ||
	element.attribs['aria-disabled'] === 'true' ||
	/(^|\s)(is-)?disabled(\s|$)|--disabled\b/.test(element.attribs['class'] ?? '');

/** The buy button's area: its form, else its parent's block. */
function buyArea(button: Element): Element | undefined {
	for (let node = button.parent; node && node.type === 'tag'; node = node.parent) if ((node as Element).name === 'form') return node as Element;
	return button.parent?.parent?.type === 'tag' ? (button.parent.parent as Element) : undefined;
}

/** A stock note in the button's form (or its parent's block): the first short text there that says the product cannot be had. */
function areaNote(button: Element, area: Element | undefined): { where: string; said: Statement; text: string } | undefined {
	if (!area) return undefined;
	let text = shortText(area, false, AREA_NODES);
	if (text === undefined || text.length > AREA_TEXT) return undefined;
	// One size's "sold out" among sizes that can be had is that size's state, not the product's.
	for (const item of variantsOut(area)) text = text.replace(item, ' ');
	const said = notNow(text.replace(controlText(button), ' '));
	return said && { where: describeElement(area), said, text };
}

/**
 * The texts of the variants a list in the buy area marks as sold out (`<li>38" sold out</li>`)
 * where others in the same list are not: each is one variant's state. Where every item says
 * so, none is returned: the product is sold out.
 */
function variantsOut(area: Element): string[] {
	const out: string[] = [];
	for (const list of findAll((element) => element.name === 'ul' || element.name === 'ol', area.children)) {
		const items = list.children
			.filter((child): child is Element => child.type === 'tag' && (child as Element).name === 'li')
			.map((item) => shortText(item) ?? '');
		const gone = items.filter((text) => notNow(text) !== undefined);
		if (gone.length > 0 && gone.length < items.length) out.push(...gone.filter((text) => text !== ''));
	}
	return out;
}

/**
 * A note saying the product can be had is no longer than this ("Availability: In Stock", "In Stock: 6"):
 * a sentence with "in stock" in it ("All in-stock items ship today") is about the shop, not this product.
 */
const STOCK_NOTE = 30;

/**
 * The nearest of the stock notes at most `NEAR_BUTTON` steps from an enabled buy button
 * that says the product cannot be had now (or only so), with how far it is. Else undefined.
 */
function nearNote(
	candidates: readonly PagePlace[],
	named: ReadonlySet<PagePlace>,
	button: PagePlace,
): { place: PagePlace; said: Statement; text: string; steps: number } | undefined {
	// Only notes under the button's ancestor `NEAR_BUTTON - 1` steps up can be that near: ranking every short text of the page was most of what this cost.
	let root: AnyNode = button.element;
	for (let up = 1; up < NEAR_BUTTON && root.parent; up++) root = root.parent;
	for (const place of byNearness(
		candidates.filter((candidate) => inside(candidate.element, root)),
		[button],
	)) {
		const steps = treeDistance(place.element, button.element);
		if (steps > NEAR_BUTTON) return undefined;
		const note = noteOf(place, named);
		if (note && note.said.availability !== 'InStock') return { place, ...note, steps };
	}
	return undefined;
}

/** What one stock note states: an element named as stock by its text, any other by its own text (or one line of it), or undefined. */
function noteOf(place: PagePlace, named: ReadonlySet<PagePlace>): { said: Statement; text: string } | undefined {
	if (named.has(place)) {
		const text = shortText(place.element);
		const said = text === undefined || text === '' || text.length > NOTE_TEXT ? undefined : readStatement(text);
		return said && text !== undefined && (said.availability !== 'InStock' || text.length <= 80) ? { said, text } : undefined;
	}
	const own = ownText(place.element);
	if (own.length <= NOTE_TEXT) {
		const said = readStatement(fold(own).replace(NOT_FOR, ' '));
		if (said && (said.availability !== 'InStock' || opens(own, said.phrase))) return { said, text: own };
	}
	// Each line on its own: "SKU: UM9109<br>In Stock: 6" is two notes in one element.
	for (const line of lines(place.element)) {
		if (line.length > STOCK_NOTE) continue;
		const said = readStatement(line);
		if (said) return { said, text: line };
	}
	return undefined;
}

/**
 * Whether a note opens with its in-stock phrase, or a label and it: "Auf Lager – Lieferzeit
 * 1-3 Werktage", "Availability: In stock, ships today", not "All in-stock items ship today".
 */
const opens = (text: string, phrase: string): boolean => /^(?:[^.!?:]{0,30}:\s*)?$/u.test(fold(text).slice(0, Math.max(0, fold(text).indexOf(phrase))));

/** An element's own text children, each collapsed, the empty ones left out. */
const lines = (element: Element): string[] =>
	element.children.flatMap((child) => (child.type === 'text' ? [(child as Text).data.replace(/\s+/g, ' ').trim()] : [])).filter((line) => line !== '');
