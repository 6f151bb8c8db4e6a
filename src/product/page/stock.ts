import type { Element, Text } from 'domhandler';
import { findAll } from 'domutils';
import { availabilityOf } from '../availability.js';
import type { Found } from '../found.js';
import type { Availability } from '../types.js';
import { byNearness, nearest } from './nearest.js';
import { controlText } from './controls.js';
import { SHORT, type Place } from './scan.js';
import { describe, ownText, shortText } from './text.js';
import { fold, IN_WORDS, OUT_WORDS } from './words.js';

/** Availabilities that say the product cannot be had now. */
const CANNOT = new Set<Availability>(['OutOfStock', 'SoldOut', 'Discontinued']);
/** A buy area's text longer than this is not read for stock words: it is the page, not the button's surroundings. */
const AREA_TEXT = 400;
/** Nor one of more nodes than this. */
const AREA_NODES = 1000;

/**
 * What a page's buy area says of its product's availability, without structured data or a
 * selector. The buy button nearest the title decides: disabled (or saying "Sold out") it is
 * out of stock; enabled, it is in stock unless its surroundings (its form, else its
 * parent's block) say "sold out", "out of stock", "nicht verfügbar", "épuisé", "在庫切れ",
 * … With no buy button, a stock note near the title says it (an element whose class says
 * stock, or one of `notes` whose short text says "Out of stock" or "In stock: 6"), if there is one. Words that name a state (`Sold out`,
 * `Ausverkauft`) give it as the rest of revisit reads them (SoldOut); a disabled button
 * with no such words gives OutOfStock.
 *
 * @example
 * pageAvailability([button], scan.stocks, [title], scan.notes) // { from: 'page', where: 'button.add-to-cart, disabled', availability: 'OutOfStock', … }
 */
export function pageAvailability(buttons: readonly Place[], stocks: readonly Place[], anchors: readonly Place[], notes: readonly Place[] = []): Found | undefined {
	const button = nearest(buttons.filter((place) => !place.elsewhere), anchors);
	if (button) {
		const says = controlText(button.element);
		const said = outOf(says);
		if (said) return found(`${describe(button.element)}, the buy button`, said, says);
		if (disabled(button.element)) return found(`${describe(button.element)}, the buy button, disabled`, 'OutOfStock', says);
		const note = areaNote(button.element);
		if (note) return found(`${note.where}, beside the buy button`, note.availability, note.text);
		return found(`${describe(button.element)}, the buy button, enabled`, 'InStock', says);
	}
	// The nearest that says a state: the candidates ranked first and their words read nearest first, since most pages have hundreds of short texts and one stock note.
	const named = new Set(stocks);
	for (const place of byNearness([...stocks, ...notes].filter((candidate) => !candidate.elsewhere), anchors)) {
		const text = named.has(place) ? shortText(place.element) : stockNote(place);
		if (text === undefined || text === '' || text.length > 80) continue;
		const availability = outOf(text) ?? availabilityOf(text);
		if (availability) return found(`${describe(place.element)}, a stock note`, availability, text);
	}
	return undefined;
}

const found = (where: string, availability: Availability, written: string): Found => ({ from: 'page', where, availability, written: { availability: written } });

/** "Not available for VAT relief", "unavailable in stores": a service or a place the product is not for, not its stock. */
const NOT_FOR = /\b(not available|unavailable|nicht verfugbar|non disponibile|no disponible|indisponible) (for|in|on|to|with|as|fur|pour|en|para|per|con)\b/g;

/** The state words that say the product cannot be had give, or undefined. */
function outOf(text: string): Availability | undefined {
	if (!OUT_WORDS.test(fold(text).replace(NOT_FOR, ' '))) return undefined;
	const named = availabilityOf(text);
	return named && CANNOT.has(named) ? named : 'OutOfStock';
}

const disabled = (element: Element): boolean =>
	element.attribs['disabled'] !== undefined || element.attribs['aria-disabled'] === 'true' || /(^|\s)(is-)?disabled(\s|$)|--disabled\b/.test(element.attribs['class'] ?? '');

/** A stock note in the button's form (or its parent's block): the first short text there that says the product cannot be had. */
function areaNote(button: Element): { where: string; availability: Availability; text: string } | undefined {
	let area: Element | undefined;
	for (let node = button.parent; node && node.type === 'tag'; node = node.parent) {
		if ((node as Element).name === 'form') {
			area = node as Element;
			break;
		}
	}
	area ??= button.parent?.parent?.type === 'tag' ? (button.parent.parent as Element) : undefined;
	if (!area) return undefined;
	let text = shortText(area, false, AREA_NODES);
	if (text === undefined || text.length > AREA_TEXT) return undefined;
	// One size's "sold out" among sizes that can be had is that size's state, not the product's.
	for (const item of variantsOut(area)) text = text.replace(item, ' ');
	const availability = outOf(text.replace(controlText(button), ' '));
	return availability && { where: describe(area), availability, text };
}

/**
 * The texts of the variants a list in the buy area marks as sold out (`<li>38" sold out</li>`)
 * where others in the same list are not: each is one variant's state. Where every item says
 * so, none is returned: the product is sold out.
 */
function variantsOut(area: Element): string[] {
	const out: string[] = [];
	for (const list of findAll((element) => element.name === 'ul' || element.name === 'ol', area.children)) {
		const items = list.children.filter((child): child is Element => child.type === 'tag' && (child as Element).name === 'li').map((item) => shortText(item) ?? '');
		const gone = items.filter((text) => outOf(text) !== undefined);
		if (gone.length > 0 && gone.length < items.length) out.push(...gone.filter((text) => text !== ''));
	}
	return out;
}

/** A note saying the product can be had is no longer than this ("Availability: In Stock", "In Stock: 6"). */
const STOCK_NOTE = 30;

/**
 * Of the notes, those whose own text says the product cannot be had ("Sold out", "Нет в
 * наличии") or can ("In stock: 6", "Есть в наличии"): tested only when asked, as the words
 * are many. A note that says it can is a short one (`STOCK_NOTE`): a sentence with "in
 * stock" in it ("All in-stock items ship today") is about the shop, not this product.
 *
 * @example
 * stockNotes(scan.notes) // [{ element: <p>, says: 'Rupture de stock', … }]
 */
export function stockNotes(notes: readonly Place[]): Array<Place & { says: string }> {
	return notes.flatMap((place) => {
		const says = stockNote(place);
		return says === undefined ? [] : [{ ...place, says }];
	});
}

/** What one note says of the stock (`stockNotes`), or undefined. */
function stockNote(place: Place): string | undefined {
	const own = ownText(place.element);
	if (own.length > SHORT) return undefined;
	if (OUT_WORDS.test(fold(own))) return own;
	// Each line on its own: "SKU: UM9109<br>In Stock: 6" is two notes in one element.
	return lines(place.element).find((text) => text.length <= STOCK_NOTE && IN_WORDS.test(fold(text)));
}

/** An element's own text children, each collapsed, the empty ones left out. */
const lines = (element: Element): string[] =>
	element.children.flatMap((child) => (child.type === 'text' ? [(child as Text).data.replace(/\s+/g, ' ').trim()] : [])).filter((line) => line !== '');
