import { readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { readOffer } from '../../src/domain/product/offer.js';

/** One phrase of the stock-phrase set (test/fixtures/stock-phrases/phrases.json): what a shop prints, in which language, what it means, where it was seen. */
export interface StockPhraseCase {
	language: string;
	text: string;
	/** The schema.org availability it says, or null where it says nothing of the stock ("Pickup unavailable at …"). */
	expect: string | null;
	seen: string;
	/** Written as shops write it around a phrase (a sentence, a product name, capitals), not a theme's string as it is. */
	variant?: boolean;
}

export const STOCK_PHRASES: StockPhraseCase[] = JSON.parse(readFileSync(new URL('../fixtures/stock-phrases/phrases.json', import.meta.url), 'utf8'));

/** Whether the phrase names the public file or page it was seen in (a platform's translation file, a shop's page), rather than being composed for the set. */
export const traced = (phrase: StockPhraseCase): boolean => !phrase.seen.startsWith('shop wording');

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A product page without structured data, as test/helpers/product-site.ts writes one, with
 * the phrase under the price: alone, or (`button`) above an enabled "Add to cart" button.
 *
 * @example
 * readOffer(parseDocument(phrasePage({ language: 'de', text: 'Ausverkauft', … }))).availability // 'SoldOut'
 */
export function phrasePage(phrase: StockPhraseCase, button = false): string {
	return (
		`<!doctype html><html lang="${phrase.language}"><head><meta charset="utf-8"><title>Product 7</title></head>` +
		`<body><header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>` +
		`<main class="product"><h1>Product 7: a sturdy thing for every day</h1><p class="price">$19.99</p><p>${escapeHtml(phrase.text)}</p>` +
		(button ? `<form method="post" action="/cart/add"><button type="submit">Add to cart</button></form>` : '') +
		`</main><footer>Made by a shop that has been around since 1999.</footer></body></html>`
	);
}

/** The availability the offer reader gives the phrase's page, or null for none. */
export const readPhrase = (phrase: StockPhraseCase, button = false): string | null =>
	readOffer(parseDocument(phrasePage(phrase, button)))?.availability ?? null;
