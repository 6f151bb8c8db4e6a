import { Parser } from 'htmlparser2';
import type { Document, Element } from 'domhandler';
import { HtmlHandler } from '../html/parse.js';
import { emptyMarkup, MARKUP_NAMES, noteMarkup, type Markup } from './markup.js';

/**
 * A DOM handler that keeps, as the parser opens them, the elements an offer may be read
 * from: what `scanMarkup` would find by walking the page again afterwards. Whether an
 * element has an `itemprop`, `property`, `itemscope` or `typeof` is told by the parser's
 * attribute events, names it holds already: four look-ups in each element's attributes
 * (objects of as many shapes as there are attribute lists) cost a tenth of the parse.
 */
class MarkupHandler extends HtmlHandler {
	readonly opened: Element[] = [];
	/** Whether the tag being opened has one of the markup attributes. */
	private marked = false;

	onopentagname(): void {
		this.marked = false;
	}

	onattribute(name: string): void {
		if (name === 'itemprop' || name === 'property' || name === 'itemscope' || name === 'typeof') this.marked = true;
	}

	override onopentag(name: string, attribs: Record<string, string>): void {
		super.onopentag(name, attribs);
		if (this.marked || MARKUP_NAMES.has(name)) this.opened.push(this.tagStack[this.tagStack.length - 1] as Element);
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
