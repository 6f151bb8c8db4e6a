import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { buyButton, controlText } from '../../../../src/domain/product/page/controls.js';

const control = (html: string): Element => parseDocument(html).children.find((node) => node.type === 'tag') as Element;

describe('buy controls', () => {
	it('knows a buy button by its name, class or words', () => {
		expect(buyButton(control('<button name="add">Add</button>'))).toBe(true);
		expect(buyButton(control('<a class="btn">In den Warenkorb</a>'))).toBe(true);
		expect(buyButton(control('<input type="submit" value="Add to Cart">'))).toBe(true);
		expect(buyButton(control('<button>Verified Purchase</button>'))).toBe(false);
		expect(buyButton(control('<input type="text" value="Add to Cart">'))).toBe(false);
		expect(buyButton(control('<div>Add to cart</div>'))).toBe(false);
	});

	it('reads what an image button says from its alt or its file name', () => {
		expect(controlText(control('<a href="#"><img src="/Graphics/AddToCart.png"></a>'))).toBe('AddToCart');
		expect(controlText(control('<button><img alt="Buy now" src="x.png"></button>'))).toBe('Buy now');
	});
});
