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
		const last = this.lastNode;
		if (last?.type === ElementType.Text) {
			last.data += data;
			return;
		}
		const node = dataNode(Text.prototype, ElementType.Text, data);
		this.addNode(node);
		this.lastNode = node;
	}

	override oncomment(data: string): void {
		const last = this.lastNode;
		if (last?.type === ElementType.Comment) {
			last.data += data;
			return;
		}
		const node = dataNode(Comment.prototype, ElementType.Comment, data);
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
