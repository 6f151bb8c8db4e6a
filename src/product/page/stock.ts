import type { Element } from 'domhandler';
import { findAll } from 'domutils';
import { availabilityOf } from '../availability.js';
import type { Found } from '../found.js';
import type { Availability } from '../types.js';
import { nearest } from './nearest.js';
import { controlText, describe, shortText, stockNotes, type Place } from './scan.js';
import { fold, OUT_WORDS } from './words.js';

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
	const said = [...stocks, ...stockNotes(notes)].filter((place) => !place.elsewhere).flatMap((place) => {
		const text = 'says' in place ? (place.says as string) : shortText(place.element);
		if (text === undefined || text === '' || text.length > 80) return [];
		const availability = outOf(text) ?? availabilityOf(text);
		return availability ? [{ ...place, availability, text }] : [];
	});
	const note = nearest(said, anchors);
	return note && found(`${describe(note.element)}, a stock note`, note.availability, note.text);
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
