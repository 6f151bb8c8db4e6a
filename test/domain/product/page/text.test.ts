import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { describeElement, hidden, shortText, struckBy, elementText } from '../../../../src/domain/product/page/text.js';

const first = (html: string, name: string): Element => {
	const stack = [...parseDocument(html).children];
	while (stack.length > 0) {
		const node = stack.shift()!;
		if (node.type === 'tag' && (node as Element).name === name) return node as Element;
		if ('children' in node) stack.push(...node.children);
	}
	throw new Error(`no <${name}>`);
};

describe('page text', () => {
	it('reads visible text without struck-through prices when asked', () => {
		const p = first('<p class="price"><del>$59.99</del> <ins>$39.99</ins><span hidden>$1</span></p>', 'p');
		expect(elementText(p)).toBe('$59.99 $39.99');
		expect(elementText(p, true)).toBe('$39.99');
	});

	it('says why a price is a former one, and what is not shown', () => {
		expect(struckBy(first('<s>$5</s>', 's'))).toBe('struck through (<s>)');
		expect(struckBy(first('<span class="price old-price">$5</span>', 'span'))).toBe('a former or list price (span.price.old-price)');
		expect(struckBy(first('<span class="price">$5</span>', 'span'))).toBeUndefined();
		expect(hidden(first('<span aria-hidden="true">$5</span>', 'span'))).toBe(true);
		expect(hidden(first('<span style="display: none">$5</span>', 'span'))).toBe(true);
		expect(hidden(first('<span style="color: red">$5</span>', 'span'))).toBe(false);
	});

	it('gives up on a block too big to be a price', () => {
		const block = first(`<div>${'<i>a</i>'.repeat(30)}</div>`, 'div');
		expect(shortText(block)).toBeUndefined();
		expect(describeElement(first('<div id="x" class="a b c d">', 'div'))).toBe('div#x.a.b.c');
	});
});
