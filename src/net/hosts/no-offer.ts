import type { HostBook } from './book.js';

/** How many pages with no offer a host's record keeps: enough to find the pattern, not the whole site. */
export const NO_OFFER_KEPT = 100;

/**
 * Keeps, on the host's record, which of its product pages (`--product`) gave no offer at
 * their last check, for `revisit stats` to list: `found` false adds the URL (up to
 * `NO_OFFER_KEPT` of them), true removes it. The record is written only when the list moves.
 *
 * @example
 * noteOffer(book, 'https://shop.example', 'https://shop.example/p/7', false)
 */
export function noteOffer(book: HostBook, origin: string, url: string, found: boolean): void {
	const host = book.get(origin);
	const urls = host.noOffer ?? [];
	const listed = urls.includes(url);
	if (found === !listed || (!found && urls.length >= NO_OFFER_KEPT)) return;
	const next = found ? urls.filter((other) => other !== url) : [...urls, url];
	const { noOffer: _before, ...rest } = host;
	book.set(origin, next.length > 0 ? { ...rest, noOffer: next } : rest);
}
