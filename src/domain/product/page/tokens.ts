import { parsePrice } from '../price.js';

/** A run of letters and digits: a word, a number, or both glued together. */
const WORD = /[\p{L}\p{N}]+/gu;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;
/** An amount glued to a currency written in letters, either way round: `199kr`, `USD12`. */
const GLUED = /^(?:\p{N}+(\p{L}{1,3})|(\p{L}{1,3})\p{N}+)$/u;

/**
 * The text with every word that mixes letters and digits blanked out, but an amount glued
 * to its currency (`199kr`, `50zł`): a session token, a nonce or a model number
 * (`ab4kr12xyz`, `X200`) is no price, though the price parser, reading any text, would
 * find a currency and a number in it (`kr` and `12`). The page source reads text nobody
 * marked as a price, so a token that changes on every fetch must never become an offer.
 *
 * @example
 * withoutTokens('session 3-ab4kr12xyz') // 'session 3- '
 * withoutTokens('Model X200 now 199kr') // 'Model   now 199kr'
 */
export function withoutTokens(text: string): string {
	return text.replace(WORD, (word) => (LETTER.test(word) && DIGIT.test(word) && !gluedAmount(word) ? ' ' : word));
}

function gluedAmount(word: string): boolean {
	const match = GLUED.exec(word);
	const letters = match?.[1] ?? match?.[2];
	return letters !== undefined && parsePrice(`1 ${letters}`)?.currency !== undefined;
}
