import { readItems } from './items.js';
import type { Source } from './source.js';

/**
 * URLs listed inline; the "line" of each is its position in the list.
 *
 * @example
 * urlsSource(['https://example.org/', 'https://example.org/about'])
 */
export function urlsSource(urls: readonly string[]): Source {
	return (context) =>
		readItems(
			urls.map((text, i) => ({ line: i + 1, text: text.trim(), source: 'urls' })),
			context.valve,
		);
}
