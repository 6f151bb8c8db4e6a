import { Parser } from 'htmlparser2';
import type { Document, Element } from 'domhandler';
import { HtmlHandler } from '../html/parse.js';
import { emptyMarkup, MARKUP_NAMES, noteMarkup, type Markup } from './markup.js';

/**
 * A DOM handler that keeps, as the parser opens them, the elements an offer may be read
 * from: what `scanMarkup` would find by walking the page again afterwards.
 */
class MarkupHandler extends HtmlHandler {
	readonly opened: Element[] = [];

	override onopentag(name: string, attribs: Record<string, string>): void {
		super.onopentag(name, attribs);
		if (attribs['itemprop'] !== undefined || attribs['property'] !== undefined || attribs['itemscope'] !== undefined || attribs['typeof'] !== undefined || MARKUP_NAMES.has(name)) {
			this.opened.push(this.tagStack[this.tagStack.length - 1] as Element);
		}
	}
}

/**
 * Parses a page as `parseHtml` does, and finds its markup (`scanMarkup`)
 * as it goes: a product page is read with no second walk of it. The markup is the page's
 * as parsed; once elements are removed from the document (`--exclude`), walk it again.
 *
 * @example
 * const { document, markup } = parseWithMarkup(html);
 * readOffer(document, { url }, markup); // as readOffer(parseDocument(html), { url })
 */
export function parseWithMarkup(html: string): { document: Document; markup: Markup } {
	const handler = new MarkupHandler();
	new Parser(handler).end(html);
	const markup = emptyMarkup();
	// Filed once the page is whole: a script's or a title's text is known only once it is closed.
	for (const element of handler.opened) noteMarkup(markup, element);
	return { document: handler.root, markup };
}
