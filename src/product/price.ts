import type { ParsedPrice } from './types.js';

/**
 * The price in a text as shops write it ("Now only $19.99!", "1 099,00 € tax incl."), or
 * undefined when there is none. (A first cut; the full parser replaces it.)
 *
 * @example
 * parsePrice('Now only $19.99!') // { amount: 19.99, currency: '$' }
 */
export function parsePrice(text: string): ParsedPrice | undefined {
	const match = /(\d+(?:[.,]\d{1,2})?)/.exec(text);
	if (!match) return /\bfree\b/i.test(text) ? { amount: 0 } : undefined;
	return { amount: Number(match[1]!.replace(',', '.')) };
}
