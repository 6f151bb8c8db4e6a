import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { pagePrice } from '../../../../src/domain/product/page/price.js';
import { scanPage } from '../../../../src/domain/product/page/scan.js';

const priceOf = (body: string) => {
	const scan = scanPage(parseDocument(body), { explain: true });
	const title = scan.titles.find((place) => !place.elsewhere);
	return pagePrice(scan.prices, title ? [title] : [], 'title', true);
};

describe('pagePrice', () => {
	it('takes the price nearest the title, not a cheaper one of a carousel above or below it', () => {
		const read = priceOf(
			`<div class="carousel"><span class="price">$3</span></div><div class="p"><h1>Lamp</h1><div><span ` +
				`class="price">$24.50</span></div></div><ul class="grid"><li><b>$2.00</b></li></ul>`,
		);
		expect(read.found).toMatchObject({ from: 'page', price: 24.5, currency: '$', where: 'span.price, nearest the title' });
		expect(read.passed).toContain('span.price "$3": in a block of other products (div.carousel)');
		expect(read.passed).toContain('b "$2.00": farther from the title than span.price');
	});

	it('never takes a price after a "was" label or inside one', () => {
		expect(priceOf('<h1>Jacket</h1><p>Was: <span class="price">$89.00</span></p><p>Now: <span class="price">$59.00</span></p>').found?.price).toBe(59);
		expect(priceOf('<h1>Jacket</h1><div class="price">UVP 89,00 € jetzt 59,00 €</div>').found?.price).toBe(59);
		expect(priceOf('<h1>Jacket</h1><span class="price" style="text-decoration: line-through">$89</span> <span class="price">$59</span>').found?.price).toBe(59);
	});

	it('takes a "regular" price only when there is no other', () => {
		expect(
			priceOf('<h1>Mug</h1><s class="price-item price-item--regular">$30.00</s><span class="price-item price-item--sale">$20.00</span>').found?.price,
		).toBe(20);
		expect(
			priceOf('<h1>Mug</h1><span class="price-item price-item--regular">$30.00</span><span class="price-item price-item--sale">$20.00</span>').found?.price,
		).toBe(20);
		expect(priceOf('<h1>Mug</h1><span class="price-item price-item--regular">$30.00</span>').found?.price).toBe(30);
	});

	it('prefers an element named as a price to a sentence with a price in it, and gives none for a page without', () => {
		expect(priceOf('<h1>Tent</h1><p>Free shipping on all orders over $50 this week</p><div class="product-price">$199.00</div>').found?.price).toBe(199);
		expect(priceOf('<h1>Tent</h1><p>Our tents are the best.</p>').found).toBeUndefined();
		expect(priceOf('<h1>Tent</h1><span class="price">-5 €</span>').passed).toContain('span.price "-5 €": negative price -5 refused');
	});

	it('reads a page of 10,000 nested or 20,000 side by side price elements without reading each block ' +
		'whole for every element inside it (a first version of this module took 20 s and 65 s on them)', () => {
		expect(priceOf(`<h1>x</h1>${'<div class="price">'.repeat(10_000)}$5${'</div>'.repeat(10_000)}`).found?.price).toBe(5);
		expect(priceOf(`<h1>x</h1>${'<span class="price">$5</span>'.repeat(20_000)}`).found?.price).toBe(5);
	}, 20_000);

	it("takes no link or form label with a price: a way elsewhere, or an option's surcharge", () => {
		// A soccer shop's title block, its menu of gift links right beside it.
		const shop = priceOf(
			'<div id="item"><h1>Home Jersey 2016</h1><ul><li><a href="/gifts-30">Less Than $30</a></li><li><a href="/ship">$5 ' +
				'Shipping Offer</a></li></ul><div class="strike_price">$54.99</div><div id="item_price">$24.99</div></div>',
		);
		expect(shop.found?.price).toBe(24.99);
		expect(shop.passed).toContain('a "$5 Shipping Offer": in a link (<a>), not the price asked');
		// An Italian shop's order form: the payment options' fees in labels beside the title, the price in the table.
		const order = priceOf(
			'<form><h1>Alesis M1Active MK2</h1><p><input type="radio" id="c"><label for="c">Contrassegno** (€ 18,00 Euro)</label></p><table><tr><td>Prezzo ' +
				'online</td><td>€ 430,00</td></tr><tr><td>Prezzo in negozio</td><td>€ 450,00</td></tr></table></form>',
		);
		expect(order.found?.price).toBe(430);
	});

	it('takes no saving, total, retail price or count as the price', () => {
		const read = priceOf(
			'<h1>Eau Duelle 3.4 oz</h1><table><tr><td class="price-info">0 Review(s)</td></tr><tr><td class="price-info">Retail Price: ' +
				'$125.00</td></tr><tr><td class="price-info">Your Savings: $11.05</td></tr><tr><td class="price-info">Your Price: ' +
				'$113.95</td></tr></table><span class="cart-text">Total: $0</span>',
		);
		expect(read.found?.price).toBe(113.95);
		expect(priceOf('<h1>Lamp</h1><p class="price">Was $59.99 You save $20.00</p><p class="price">$39.99</p>').found?.price).toBe(39.99);
	});

	it("takes no price from a comparison of other products beside the title (Amazon's, with no offer of its own)", () => {
		const read = priceOf(
			'<div id="dp"><h1>Robot Limpiacristales</h1><div id="buybox"><a href="/offers">Ver todas las opciones de compra</a></div><div ' +
				'class="_product-comparison-desktop_style_table"><span class="a-price _product-comparison-desktop_priceStyle_price-light">14,00€</span>' +
				'</div></div>',
		);
		expect(read.found).toBeUndefined();
	});

	it('takes no price from a block named as other products only by its heading', () => {
		const html =
			`<form><div class="col3"><div class="block border products"><h3>Recommended Products</h3><ul class="grid5">
			<li><span class="title">Satin Ice Fondant</span><span class="price"><s>$56.99</s>$47.99</span></li><li><span class="price">$9.99</span></li></ul>` +
			`</div></div></form>
			<div class="col2"><form action="cart.actions.php"><h1>3-D Large Cupcake Cake Pan by Wilton</h1><ul class="right"><li class="up">Our Price</li><li>` +
			`<h2>$30.99</h2></li></ul>
			<input type="submit" class="add_cart" value=""></form></div>`;
		const read = priceOf(html);
		expect(read.found?.price).toBe(30.99);
		expect(read.passed).toContain('span.price "$9.99": in a block of other products (div.block.border.products, headed "Recommended Products")');
		// A heading of the product's own block says nothing.
		expect(priceOf('<div class="product"><h2>Details</h2><h1>Lamp</h1><span class="price">$24.50</span></div>').found?.price).toBe(24.5);
	});
});
