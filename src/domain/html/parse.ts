import { DomHandler, ElementType, Parser } from 'htmlparser2';
import { Comment, Text, type Document } from 'domhandler';
import { dataNode, element } from './nodes.js';

/**
 * htmlparser2's DOM handler with its element, text and comment nodes made by assignment
 * (see nodes.ts). Subclass it as `DomHandler`; HTML only (no `xmlMode`, no
 * start or end indices).
 *
 * @example
 * const handler = new HtmlHandler();
 * new Parser(handler).end(html);
 * handler.root // the document, as parseDocument(html) gives it
 */
export class HtmlHandler extends DomHandler {
	override onopentag(name: string, attribs: Record<string, string>): void {
		const node = element(name, attribs);
		this.addNode(node);
		this.tagStack.push(node);
	}

	override ontext(data: string): void {
		this.#addData(Text.prototype, ElementType.Text, data);
	}

	override oncomment(data: string): void {
		this.#addData(Comment.prototype, ElementType.Comment, data);
	}

	/** A text or comment node; the parser gives one in pieces, which go on the node before. */
	#addData<T extends Text | Comment>(prototype: T, type: T['type'], data: string): void {
		const last = this.lastNode;
		if (last?.type === type) {
			(last as T).data += data;
			return;
		}
		const node = dataNode(prototype, type, data);
		this.addNode(node);
		this.lastNode = node;
	}
}

/**
 * Parses an HTML page into the DOM htmlparser2's `parseDocument` gives, at about half its
 * cost (bench/PRODUCT.md).
 *
 * @example
 * parseHtml('<p>Hello</p>').children[0] // an Element named 'p'
 */
export function parseHtml(html: string): Document {
	const handler = new HtmlHandler();
	new Parser(handler).end(html);
	return handler.root;
}
