import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { buyButton } from '../../../../src/domain/product/page/controls.js';
import { scanPage } from '../../../../src/domain/product/page/scan.js';

describe('scanPage', () => {
	const scan = scanPage(
		parseDocument(`<header><h1 class="logo">Shop</h1><span class="cart-total">0,00 €</span></header>
		<main><article><header><h1>Kettle</h1></header><p class="price"><del>$59.99</del> <ins>$39.99</ins></p><span aria-hidden="true">$39.99</span>
		<button class="add-to-cart">Add</button><a href="/x">Add to basket</a><p class="stock">Only 2 left</p></article>
		<div class="related-products"><span class="price">$5</span><button>Add to cart</button></div></main>
		<footer>Free shipping from 50 €</footer><script>var price = "$1";</script>`),
		{ explain: true },
	);
	const shown = (places: typeof scan.prices) =>
		places.map((place) => [place.element.name, place.elsewhere?.replace(/ \(.*$/, '') ?? place.struck?.replace(/ \(.*$/, '') ?? '']);

	it('notes titles, buy buttons, prices and stock notes, with what rules them out', () => {
		expect(shown(scan.titles)).toEqual([
			['h1', "in the page's header"],
			['h1', ''],
		]);
		expect(shown(scan.controls.filter((place) => buyButton(place.element)))).toEqual([
			['button', ''],
			['a', ''],
			['button', 'in a block of other products'],
		]);
		expect(shown(scan.prices)).toEqual([
			['span', "in the page's header"],
			['p', ''],
			['del', 'struck through'],
			['ins', ''],
			['span', 'in a block of other products'],
			['footer', "in the page's footer"],
		]);
		expect(shown(scan.stocks)).toEqual([['p', '']]);
		expect(scan.notes.map((place) => place.element.name)).toContain('h1');
	});
});
