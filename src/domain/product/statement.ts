import { fold, UNSPACED } from './page/words.js';
import { compileStockPhrases, phraseKey, STOCK_LANGUAGES, type State, type StockPatterns } from './stock-phrases.js';
import type { Availability } from '../../store/model/product.js';

/** What a text says of a product's stock: the availability, the phrase that says it as folded, and how its governing words read it. */
export interface Statement {
	availability: Availability;
	/** The phrase, folded: `in stock`, `ausverkauft`. */
	phrase: string;
	/** How it was read, where the words around the phrase changed it: `negated by "isn't"`, `in the future ("will be back")`. */
	read?: string;
}

let compiled: StockPatterns | undefined;

/** The phrase data compiled once per process, when a text is first read (not at start: most runs read no product page). */
const stock = (): StockPatterns => (compiled ??= compileStockPhrases(STOCK_LANGUAGES));

/** A text's sentences and clauses: a negation or a time word does not reach across these. */
const CLAUSE = /[.!?;|•·,\n\r\t。！？；、，]+|\s[-–—]\s/u;

/** What each state gives, and how strongly: of a text's statements the strongest is taken. */
const GIVES: Record<State, { availability: Availability; rank: number }> = {
	preorder: { availability: 'PreOrder', rank: 9 },
	backorder: { availability: 'BackOrder', rank: 8 },
	discontinued: { availability: 'Discontinued', rank: 7 },
	soldout: { availability: 'SoldOut', rank: 6 },
	out: { availability: 'OutOfStock', rank: 5 },
	cta: { availability: 'OutOfStock', rank: 5 },
	coming: { availability: 'OutOfStock', rank: 5 },
	limited: { availability: 'LimitedAvailability', rank: 3 },
	in: { availability: 'InStock', rank: 1 },
	available: { availability: 'InStock', rank: 1 },
};
/** An in-stock phrase negated or put in the future: the product cannot be had now. */
const NOT_NOW = { availability: 'OutOfStock' as Availability, rank: 5 };

/** A zero in a phrase: "0 in stock". */
const ZERO = /(?:^|[^\p{N}])0+(?:[^\p{N}]|$)/u;
/** A text of time words alone is read up to this length: "Bientôt", "قريباً". */
const TIME_ONLY = 24;

/** Words beside an `available` phrase that still leave it alone: "Available now", "Produkt dostępny". */
const ALONE = 1;

/**
 * What a text says of a product's stock, read as a statement: the stock phrase of any of
 * the languages in src/domain/product/stock-phrases/ with the words that govern it. A negator
 * before it within three words ("isn't in stock", "nicht mehr auf Lager", "tidak tersedia",
 * "没有现货") or after it ("mevcut değil", "In stock: no") makes an in-stock phrase
 * OutOfStock, and so does a time word ("will be back in stock", "bald verfügbar",
 * "available from 12 May"): it cannot be had now. Calls to action only an unavailable
 * product shows ("Notify me when available") and "coming soon" give OutOfStock; pre-order
 * and back-order wording PreOrder and BackOrder; "only 3 left" LimitedAvailability. A
 * sentence with a word of something else ("Pickup unavailable at …", "not available for
 * VAT relief") says nothing of the stock. Of several statements the strongest is taken:
 * PreOrder, BackOrder, Discontinued, SoldOut, OutOfStock, LimitedAvailability, InStock.
 * Undefined where the text states nothing.
 *
 * @example
 * readStatement("This item isn't in stock right now") // { availability: 'OutOfStock', phrase: 'in stock', read: 'negated by "isn\'t"' }
 * readStatement('Nur noch 2 auf Lager') // { availability: 'LimitedAvailability', phrase: 'nur noch 2' }
 * readStatement('Ships in 3 days') // undefined
 */
export function readStatement(text: string): Statement | undefined {
	const folded = fold(text);
	const patterns = stock();
	// `search`, not `test`: a global pattern's `test` leaves a `lastIndex` behind, and `matchAll` below starts from it.
	if (folded.search(patterns.states) === -1)
		return folded.length <= TIME_ONLY && patterns.timeOnly.test(folded)
			? { availability: 'OutOfStock', phrase: folded, read: 'a time alone: still to come' }
			: undefined;
	let best: { availability: Availability; rank: number } | undefined;
	let said: Statement | undefined;
	for (const clause of folded.split(CLAUSE)) {
		if (clause === '') continue;
		for (const match of clause.matchAll(patterns.states)) {
			const phrase = match[0];
			// A word of something else outside the phrase: "Pickup unavailable". Inside it, the phrase is about the stock: "Envío inmediato" (ready to ship).
			if (patterns.other.test(`${clause.slice(0, match.index)} ${clause.slice(match.index! + phrase.length)}`)) continue;
			const state = patterns.stateOf.get(phraseKey(phrase));
			if (state === undefined) continue;
			const read = state === 'in' || state === 'available' ? governed(clause, match.index!, phrase) : undefined;
			if (read === undefined && state === 'available' && !alone(clause, phrase)) continue;
			const gives = read ? NOT_NOW : GIVES[state];
			if (best && gives.rank <= best.rank) continue;
			best = gives;
			said = { availability: gives.availability, phrase, ...(read ? { read } : {}) };
		}
	}
	return said;
}

/** How the words around an in-stock phrase read it, where they make it not now: negated, zero, or in the future. Else undefined. */
function governed(clause: string, at: number, phrase: string): string | undefined {
	const patterns = stock();
	// "0 in stock", "In stock: 0".
	if (ZERO.test(phrase)) return 'zero';
	const before = clause.slice(0, at);
	const after = clause.slice(at + phrase.length);
	const negator = patterns.negatedBefore.exec(before) ?? patterns.negatedAfter.exec(after);
	if (negator) return `negated by "${negator[0].trim()}"`;
	const future = patterns.futureBefore.exec(before) ?? patterns.futureAfter.exec(after);
	if (future) return `in the future ("${future[0].trim()}")`;
	return undefined;
}

/** Whether an `available` phrase stands alone in its clause: at most `ALONE` other words ("Available now"), not "Also available in blue". */
function alone(clause: string, phrase: string): boolean {
	if (UNSPACED.test(phrase)) return clause.length - phrase.length <= 4;
	const rest = clause.replace(phrase, ' ').match(/[\p{L}\p{N}]+/gu) ?? [];
	return rest.length <= ALONE;
}
