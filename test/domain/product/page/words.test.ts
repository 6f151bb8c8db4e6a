import { describe, expect, it } from 'vitest';
import { alternatives, BUY_NAME, BUY_WORDS, fold, STRUCK_NAME, WAS_BEFORE, WAS_PRICE } from '../../../../src/domain/product/page/words.js';

describe('page words', () => {
	it('finds buy buttons by what they say, in many languages, and by their names', () => {
		for (const says of [
			'Add to Cart',
			'In den Warenkorb',
			'Ajouter au panier',
			'Añadir al carrito',
			'Aggiungi al carrello',
			'カートに入れる',
			'加入购物车',
			'В корзину',
			'Dodaj do koszyka',
		])
			expect(BUY_WORDS.test(fold(says)), says).toBe(true);
		for (const says of ['Add to wishlist', 'Warenkorb anzeigen', 'Read more']) expect(BUY_WORDS.test(fold(says)), says).toBe(false);
		for (const name of ['add-to-cart-button', 'single_add_to_cart_button', 'product-form__submit', 'add']) expect(BUY_NAME.test(name), name).toBe(true);
		expect(BUY_NAME.test('address')).toBe(false);
	});

	it('compiles phrases with a number, a word ending and spaced or hyphenated words', () => {
		const pattern = new RegExp(alternatives(['only {n} left', "*n't", 'pre-order', '在庫あり', '재고 있음'], true), 'u');
		for (const says of ['only 3 left', "isn't", 'preorder', 'pre order', '在庫あります', '재고 있음니다']) expect(pattern.test(fold(says)), says).toBe(true);
		for (const says of ['only a few left', 'not', 'preorders']) expect(pattern.test(fold(says)), says).toBe(false);
	});

	it('knows a former or list price by its class, its label, or the words before it in a text', () => {
		for (const name of ['old-price', 'price--old', 'was-price', 'compare-at-price', 'uvp', 'price price-strike'])
			expect(STRUCK_NAME.test(name), name).toBe(true);
		for (const name of ['price', 'special-price', 'price-item--sale', 'sale']) expect(STRUCK_NAME.test(name), name).toBe(false);
		for (const label of ['Was:', 'UVP', 'statt', 'List Price:', 'Prix barré']) expect(WAS_BEFORE.test(fold(label)), label).toBe(true);
		expect(WAS_BEFORE.test(fold('Now:'))).toBe(false);
		expect('Was $89.00 Now $59.00'.replace(WAS_PRICE, ' ').trim()).toBe('Now $59.00');
		expect('39,99 € statt 59,99 €'.replace(WAS_PRICE, ' ').trim()).toBe('39,99 €');
		expect('Regular price $59.99 Sale price $39.99'.replace(WAS_PRICE, ' ').trim()).toBe('Sale price $39.99');
	});
});
