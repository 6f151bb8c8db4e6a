import { ElementType } from 'htmlparser2';
import { type Comment, Element, type Text } from 'domhandler';

/*
 * domhandler 6 declares its nodes' properties as class fields. On Node 20's V8 a class
 * field is defined, not assigned, one at a time through each class of the chain (12 for
 * an element), and that took a quarter of the CPU of parsing a real shop page
 * (bench/PRODUCT.md). The nodes made here are the same objects: the same prototypes
 * (`instanceof Element` holds, and every getter), the same own properties in the same
 * order, given by plain assignment.
 */

/**
 * An element as domhandler's `new Element(name, attribs)` makes it in HTML.
 *
 * @example
 * element('p', { class: 'price' }) instanceof Element // true
 */
export function element(name: string, attribs: Record<string, string>): Element {
	const node = Object.create(Element.prototype) as Element;
	node.parent = null;
	node.prev = null;
	node.next = null;
	node.startIndex = null;
	node.endIndex = null;
	node.children = [];
	node.name = name;
	node.attribs = attribs;
	node.type = name === 'script' ? ElementType.Script : name === 'style' ? ElementType.Style : ElementType.Tag;
	node.namespace = undefined;
	node['x-attribsNamespace'] = undefined;
	node['x-attribsPrefix'] = undefined;
	return node;
}

/**
 * A text or comment node as domhandler's `new Text(data)` or `new Comment(data)` makes it.
 *
 * @example
 * dataNode(Text.prototype, ElementType.Text, 'Hello').data // 'Hello'
 */
export function dataNode<T extends Text | Comment>(prototype: T, type: T['type'], data: string): T {
	const node = Object.create(prototype) as T;
	node.parent = null;
	node.prev = null;
	node.next = null;
	node.startIndex = null;
	node.endIndex = null;
	node.data = data;
	(node as { type: T['type'] }).type = type;
	return node;
}
