import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { buyButton } from '../../../../src/domain/product/page/controls.js';
import { scanPage } from '../../../../src/domain/product/page/scan.js';
import { pageAvailability } from '../../../../src/domain/product/page/stock.js';

const stockOf = (body: string) => {
	const scan = scanPage(parseDocument(body));
	const anchors = scan.titles.slice(0, 1);
	return pageAvailability(scan.controls.filter((place) => !place.elsewhere && buyButton(place.element)).slice(0, 1), scan.stocks, anchors, scan.notes);
};

describe('pageAvailability', () => {
	it('an enabled buy button is in stock; a disabled one is out of stock', () => {
		expect(stockOf('<h1>Lamp</h1><button class="add-to-cart">Add to cart</button>')).toMatchObject({
			from: 'page',
			availability: 'InStock',
			where: 'button.add-to-cart, the buy button, enabled',
		});
		expect(stockOf('<h1>Lamp</h1><button class="add-to-cart" disabled>Add to cart</button>')).toMatchObject({
			availability: 'OutOfStock',
			where: 'button.add-to-cart, the buy button, disabled',
		});
		expect(stockOf('<h1>Lamp</h1><a class="btn btn--disabled" href="#">In den Warenkorb</a>')?.availability).toBe('OutOfStock');
		expect(stockOf('<h1>Lamp</h1><input type="submit" value="Ajouter au panier" aria-disabled="true">')?.availability).toBe('OutOfStock');
	});

	it('reads what the button and its surroundings say', () => {
		expect(stockOf('<h1>Lamp</h1><button name="add">Sold out</button>')?.availability).toBe('SoldOut');
		expect(stockOf('<h1>Lamp</h1><form><p>Currently unavailable.</p><input type="submit" value="Buy now"></form>')).toMatchObject({
			availability: 'OutOfStock',
			where: 'form, beside the buy button',
		});
		expect(stockOf('<h1>Lampada</h1><div><div><span>Non disponibile</span><button>Aggiungi al carrello</button></div></div>')?.availability).toBe('OutOfStock');
	});

	it('without a buy button, takes a stock note near the title, and nothing from other products', () => {
		expect(stockOf('<h1>Чайник</h1><div class="stock-status">Нет в наличии</div>')?.availability).toBe('OutOfStock');
		expect(stockOf('<h1>Kettle</h1><p class="availability">In stock</p>')?.availability).toBe('InStock');
		expect(stockOf('<h1>Kettle</h1><div class="related"><p>Sold out</p></div>')).toBeUndefined();
	});

	it('without a buy button, takes a short note that says in stock, a line of its own included', () => {
		// A Volusion-era page: the stock count is a line of text between <br>s in the product's block.
		expect(
			stockOf('<h1>Patio Umbrella</h1><div id="productRight">SKU: UM9109-3462<br>\n\t\tIn Stock: 6<br><p><span class="price">$174.99</span></p></div>'),
		).toMatchObject({ availability: 'InStock', written: { availability: 'In Stock: 6' } });
		expect(stockOf('<h1>Cake Pan</h1><ul><li>Availability: <span class="gray">In Stock</span></li></ul>')?.availability).toBe('InStock');
		expect(stockOf('<h1>Дисплей</h1><p class="in-stock">Есть в наличии</p>')?.availability).toBe('InStock');
		// A sentence about the shop is no note of this product's stock.
		expect(stockOf('<h1>Kettle</h1><p>All orders of in stock items placed before 2pm ship the same day</p>')).toBeUndefined();
	});

	it("reads WebSphere's Add2Cart ids as a buy button", () => {
		expect(
			stockOf('<h1>Sandal</h1><a href="#" id="productPageAdd2Cart"><button type="submit" class="quantity_button">Add To Backpack:</button></a>'),
		).toMatchObject({ availability: 'InStock', where: 'a#productPageAdd2Cart, the buy button, enabled' });
	});

	it("reads a size sold out among sizes that can be had as that size's state, and all of them sold out as the product's", () => {
		const sizes = (marks: string[]) =>
			`<h1>Slim Fit Chinos</h1><form class="prod_opts"><ul>` +
			marks.map((mark, i) => `<li><span class="size">${30 + 2 * i}" ${mark}</span></li>`).join('') +
			`</ul><p>£34.95</p><button class="add-to-cart">Add to bag</button></form>`;
		expect(stockOf(sizes(['', '', 'sold out', 'sold out']))?.availability).toBe('InStock');
		expect(stockOf(sizes(['sold out', 'sold out', 'sold out']))?.availability).toBe('SoldOut');
	});

	it('reads a stock note near an enabled buy button: its words, nearer and more specific, win over the button, and where says why', () => {
		const page = (note: string) =>
			`<main><h1>Kettle</h1><p class="price">$29.99</p><p>${note}</p><form><button class="add-to-cart">Add to cart</button></form></main>`;
		expect(stockOf(page("This item isn't in stock right now."))).toMatchObject({
			availability: 'OutOfStock',
			where: `p, a stock note 3 steps from the buy button (button.add-to-cart, enabled): its words win over the button, "in stock" negated by "isn't"`,
		});
		expect(stockOf(page('Notify me when available'))?.availability).toBe('OutOfStock');
		expect(stockOf(page('Only 2 left'))?.availability).toBe('LimitedAvailability');
		expect(stockOf(page('Free shipping on orders over $50'))).toMatchObject({ availability: 'InStock', where: 'button.add-to-cart, the buy button, enabled' });
		// Far from the button, in another block of the page, a note does not speak for this product.
		expect(
			stockOf(
				'<main><div><div><h1>Kettle</h1><form><button class="add-to-cart">Add to ' +
					'cart</button></form></div></div><div><div><div><div><p>Sold out</p></div></div></div></div></main>',
			)?.availability,
		).toBe('InStock');
	});

	it('reads a note with no buy button as a statement: negation, time and calls to action', () => {
		const page = (note: string) => `<h1>Kettle</h1><p class="price">$29.99</p><p>${note}</p>`;
		expect(stockOf(page('No longer in stock'))).toMatchObject({ availability: 'OutOfStock', where: 'p, a stock note, "in stock" negated by "no longer"' });
		expect(stockOf(page('Available from 12 May'))?.availability).toBe('OutOfStock');
		expect(stockOf(page('Stok habis'))?.availability).toBe('OutOfStock');
		expect(stockOf(page('Auf Lager – Lieferzeit 1-3 Werktage'))?.availability).toBe('InStock');
	});

	it('reads "not available for VAT relief" as no word on the stock', () => {
		const page = (note: string) =>
			`<h1>Hearing Aid - Mini Ear</h1><form action="/basket"><p>£17.26</p><p>${note}</p><input type="image" alt="Add to basket" value="Add to basket"></form>`;
		expect(stockOf(page('This Product is NOT Available For VAT Relief'))?.availability).toBe('InStock');
		expect(stockOf(page('This product is not available'))?.availability).toBe('OutOfStock');
	});

	it('takes no note that says "available" or "disponible" of something else', () => {
		expect(stockOf('<h1>Robot Limpiacristales</h1><div><span>La lista no está disponible.</span></div>')).toBeUndefined();
		expect(stockOf('<h1>Kettle</h1><p>Also available in blue</p>')).toBeUndefined();
	});

	it('reads an image button by its alt or its file name, as old shops draw them', () => {
		expect(
			stockOf(
				'<h1>Home Jersey 2016</h1><table><tr><td><a href="javascript:checkOrder();"><img ' +
					'border=0 src="https://img.example/Graphics/AddToCart.png"></a></td></tr></table>',
			),
		).toMatchObject({ availability: 'InStock', where: 'a, the buy button, enabled' });
		expect(stockOf('<h1>Lamp</h1><a href="/basket/add"><img src="/i/btn.gif" alt="Add to basket"></a>')?.availability).toBe('InStock');
		expect(stockOf('<h1>Lamp</h1><a href="/"><img src="/i/logo.png"></a>')).toBeUndefined();
	});
});
