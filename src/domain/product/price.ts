import { type CurrencyMatch, currencyName, findCurrencies, hasThreeDecimals } from './currencies.js';
import { type NumberToken, normalizeSpaces, readAmount, scanNumbers } from './price-number.js';
import type { ParsedPrice } from '../../store/model/product.js';

/** What the caller knows that the text may not say. */
export interface PriceHint {
	/** The decimal separator the shop uses, when known (a locale, a site rule). */
	decimal?: ',' | '.';
	/**
	 * The currency to report when the text names none: a code (`EUR`), a symbol, or a
	 * nearby text that holds one (a label such as "Pris NOK").
	 */
	currency?: string;
}

interface Candidate {
	token: NumberToken;
	currencies: CurrencyMatch[];
}

// "Free", as a price, in the languages shops write most; not "free shipping".
const FREE = new RegExp(
	String.raw`(?<!\p{L})(?:free|gratis|kostenlos|gratuit|gratuite|gratuito|gratuita|бесплатно|zdarma|darmowy)(?!\p{L})(?!\s+(?:shipping|delivery|returns|` +
		`versand|lieferung))`,
	'iu',
);
const PERCENT = / ?%/y;
const RANGE = /^\s*(?:-|–|—|to|bis|à|a|au|do|до)\s*$/iu;
const JOINER = /^[\s:]*$/;

/**
 * The price in a text as shops write it, or undefined when there is none. The number
 * taken is the first one a currency is written next to, else the first number; thousands
 * and decimal separators are read by their positions (`1,234.56`, `1.234,56`, `1 234,56`,
 * `1'234.56`, `1234,-`, Indian `1,23,456.00`). The currency is the ISO 4217 code when the
 * text names one unambiguously (`€` → EUR, `zł` → PLN), else as written (`$`, `kr`, `¥`).
 * A minus sign right before the number, or before a currency right before it, makes it
 * negative (`-5`, `−5 €`, `-€5`, `€ -5`); one after a digit or a letter does not (`10-20`).
 *
 * @example
 * parsePrice('Beginning at 1 099,00 € tax incl.') // { amount: 1099, currency: 'EUR' }
 * parsePrice('Now only $19.99!') // { amount: 19.99, currency: '$' }
 * parsePrice('Free') // { amount: 0 }
 * parsePrice('Out of stock') // undefined
 * parsePrice('12,50', { currency: 'EUR' }) // { amount: 12.5, currency: 'EUR' }
 * parsePrice('−5 €') // { amount: -5, currency: 'EUR' }
 */
export function parsePrice(text: string, hint: PriceHint = {}): ParsedPrice | undefined {
	if (typeof text !== 'string') return undefined;
	const normal = normalizeSpaces(text);
	const currencies = findCurrencies(normal);
	const candidates = scanNumbers(normal)
		.filter((token) => !followedBy(PERCENT, normal, token.end) && readAmount(token.raw, hint) !== undefined)
		.map((token) => ({ token, currencies: attached(normal, token, currencies) }));
	if (candidates.length === 0) return FREE.test(normal) ? { amount: 0 } : undefined;
	const { token, currency } = choose(normal, candidates);
	const found = currency ?? best(currencies) ?? best(hint.currency ? findCurrencies(normalizeSpaces(hint.currency)) : []);
	const read = readAmount(token.raw, { decimal: hint.decimal, threeDecimals: hasThreeDecimals(found?.code) })!;
	const amount = negative(normal, token, currencies) ? -read : read;
	return found ? { amount, currency: currencyName(found) } : { amount };
}

const MINUS = /[-\u2212]/;
const WORD = /[\p{L}\p{N}]/u;

/** Whether a minus sign stands right before the number, or before a currency written right before it, and after no digit or letter. */
function negative(text: string, token: NumberToken, currencies: CurrencyMatch[]): boolean {
	let at = token.start - 1;
	if (!MINUS.test(text[at] ?? '')) {
		// The last currency that ends where the number starts, or a space before it.
		const currency = currencies[firstEndingAfter(currencies, token.start) - 1];
		if (!currency || !/^ ?$/.test(text.slice(currency.end, token.start))) return false;
		at = currency.start - 1;
	}
	return MINUS.test(text[at] ?? '') && !WORD.test(text[at - 1] ?? '');
}

function followedBy(pattern: RegExp, text: string, at: number): boolean {
	pattern.lastIndex = at;
	return pattern.test(text);
}

/** The first candidate with a currency next to it (or ranging up to one: "From 26 to 50 €"), else the first. */
function choose(text: string, candidates: Candidate[]): { token: NumberToken; currency?: CurrencyMatch | undefined } {
	for (const [index, candidate] of candidates.entries()) {
		if (candidate.currencies.length > 0) return { token: candidate.token, currency: best(candidate.currencies) };
		const next = candidates[index + 1];
		const after = next?.currencies.filter((currency) => currency.start >= next.token.end);
		if (next && after!.length > 0 && RANGE.test(text.slice(candidate.token.end, next.token.start))) {
			return { token: candidate.token, currency: best(after!) };
		}
	}
	return { token: candidates[0]!.token };
}

/** The currencies written next to a number: before it or after it, with only spaces, colons or other currencies between. */
function attached(text: string, token: NumberToken, currencies: CurrencyMatch[]): CurrencyMatch[] {
	const found: CurrencyMatch[] = [];
	// currencies are in text order: start at the first one that does not end before the number.
	const first = firstEndingAfter(currencies, token.start);
	let edge = token.start;
	for (let i = first - 1; i >= 0 && JOINER.test(text.slice(currencies[i]!.end, edge)); i--) {
		found.push(currencies[i]!);
		edge = currencies[i]!.start;
	}
	let i = first;
	for (; i < currencies.length && currencies[i]!.end <= token.end; i++) found.push(currencies[i]!); // "35€99"
	edge = token.end;
	for (; i < currencies.length && JOINER.test(text.slice(edge, currencies[i]!.start)); i++) {
		found.push(currencies[i]!);
		edge = currencies[i]!.end;
	}
	return found;
}

/** The index of the first currency that ends after a position (binary search: a long text may hold many). */
function firstEndingAfter(currencies: CurrencyMatch[], position: number): number {
	let low = 0;
	let high = currencies.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (currencies[middle]!.end <= position) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** The most specific of some currencies: a code over a symbol naming one currency over an ambiguous one. */
function best(currencies: CurrencyMatch[]): CurrencyMatch | undefined {
	return currencies.reduce<CurrencyMatch | undefined>((chosen, currency) => (!chosen || currency.rank > chosen.rank ? currency : chosen), undefined);
}

/**
 * A price from a structured-data value (JSON-LD `price`, a microdata `content`,
 * `product:price:amount`): a number as is, a plain decimal string with `.` as schema.org
 * asks (`'2879.20'`), or else a string as shops write it (`'1.299,00'`, `'€ 12'`).
 * Undefined when there is no price in it.
 *
 * @example
 * priceNumber('2879.20') // 2879.2
 * priceNumber(2879.2) // 2879.2
 * priceNumber('1.299,00') // 1299
 * priceNumber('1.500') // 1.5 (schema.org's decimal point, not a thousands separator)
 */
export function priceNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (/^\d+(?:\.\d+)?$/.test(text) || /^\.\d+$/.test(text)) return Number(text);
	const amount = parsePrice(text)?.amount;
	return amount !== undefined && amount >= 0 ? amount : undefined;
}
