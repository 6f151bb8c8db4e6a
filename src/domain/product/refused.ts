import type { ParsedPrice } from '../../store/model/product.js';

/** A price this big is no shop's: a markup error or a number that is not a price. */
export const MAX_PRICE = 1e12;
/** More significant digits than a double holds exactly (15): a price written so is no price. */
const MAX_DIGITS = 15;

/**
 * A price as an offer takes it, or the problem that refuses it: a negative price
 * (`"-5"`, `"−5 €"`: an offer has no negative price, and reading its magnitude would be
 * wrong), or an absurd one (1e12 or more, more than 15 significant digits, or beyond what
 * a number holds, as a 400-digit price is). `read` reads the written value.
 *
 * @example
 * priceRead('19.99', amountOf) // { amount: { amount: 19.99 } }
 * priceRead('-5', amountOf) // { problem: 'negative price -5 refused' }
 * priceRead('9'.repeat(400), amountOf) // { problem: 'price of 400 digits refused as absurd' }
 */
export function priceRead<T>(written: T, read: (value: T) => ParsedPrice | undefined): { amount?: ParsedPrice; problem?: string } {
	const amount = read(written);
	if (amount === undefined) return {};
	const problem = priceProblem(amount.amount, written);
	return problem === undefined ? { amount } : { problem };
}

/**
 * Why an amount read from a written price is refused, or undefined when it is a price.
 *
 * @example
 * priceProblem(-5, '-5') // 'negative price -5 refused'
 * priceProblem(19.99, '19.99') // undefined
 */
export function priceProblem(amount: number, written: unknown): string | undefined {
	if (amount < 0 && Number.isFinite(amount)) return `negative price ${amount} refused`;
	if (Number.isFinite(amount) && Math.abs(amount) < MAX_PRICE && significantDigits(amount) <= MAX_DIGITS) return undefined;
	// A number written as text is named by its length (a 400-digit price is Infinity); a JSON number as it is.
	const digits = typeof written === 'string' ? longestNumber(written) : 0;
	return digits > 0 ? `price of ${digits} digits refused as absurd` : `price ${String(written).slice(0, 40)} refused as absurd`;
}

/** The significant digits of a number as JavaScript writes it shortest (`19.99` has 4). */
const significantDigits = (amount: number): number => amount.toExponential().replace(/e.*$/, '').replace(/[^\d]/g, '').length;

/** The digits of the longest number in a text (digits with the separators between them). */
function longestNumber(text: string): number {
	let longest = 0;
	for (const [number] of text.matchAll(/\d(?:[\d.,' \u00a0\u202f]*\d)?/g)) longest = Math.max(longest, number.replace(/\D/g, '').length);
	return longest;
}
