import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { buyButton, scanPage } from '../../../src/product/page/scan.js';
import { pageAvailability } from '../../../src/product/page/stock.js';

const stockOf = (body: string) => {
	const scan = scanPage(parseDocument(body));
	const anchors = scan.titles.slice(0, 1);
	return pageAvailability(scan.controls.filter((place) => !place.elsewhere && buyButton(place.element)).slice(0, 1), scan.stocks, anchors, scan.notes);
};

describe('pageAvailability', () => {
	it('an enabled buy button is in stock; a disabled one is out of stock', () => {
		expect(stockOf('<h1>Lamp</h1><button class="add-to-cart">Add to cart</button>')).toMatchObject({ from: 'page', availability: 'InStock', where: 'button.add-to-cart, the buy button, enabled' });
		expect(stockOf('<h1>Lamp</h1><button class="add-to-cart" disabled>Add to cart</button>')).toMatchObject({ availability: 'OutOfStock', where: 'button.add-to-cart, the buy button, disabled' });
		expect(stockOf('<h1>Lamp</h1><a class="btn btn--disabled" href="#">In den Warenkorb</a>')?.availability).toBe('OutOfStock');
		expect(stockOf('<h1>Lamp</h1><input type="submit" value="Ajouter au panier" aria-disabled="true">')?.availability).toBe('OutOfStock');
	});

	it('reads what the button and its surroundings say', () => {
		expect(stockOf('<h1>Lamp</h1><button name="add">Sold out</button>')?.availability).toBe('SoldOut');
		expect(stockOf('<h1>Lamp</h1><form><p>Currently unavailable.</p><input type="submit" value="Buy now"></form>')).toMatchObject({ availability: 'OutOfStock', where: 'form, beside the buy button' });
		expect(stockOf('<h1>Lampada</h1><div><div><span>Non disponibile</span><button>Aggiungi al carrello</button></div></div>')?.availability).toBe('OutOfStock');
	});

	it('without a buy button, takes a stock note near the title, and nothing from other products', () => {
		expect(stockOf('<h1>Чайник</h1><div class="stock-status">Нет в наличии</div>')?.availability).toBe('OutOfStock');
		expect(stockOf('<h1>Kettle</h1><p class="availability">In stock</p>')?.availability).toBe('InStock');
		expect(stockOf('<h1>Kettle</h1><div class="related"><p>Sold out</p></div>')).toBeUndefined();
	});
});
