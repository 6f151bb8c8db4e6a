import { describe, expect, it } from 'vitest';
import { availabilityOf } from '../../../src/domain/product/availability.js';
import { AVAILABILITIES } from '../../../src/store/model/product.js';

describe('availabilityOf', () => {
	it('reads schema.org URLs and prefixed names', () => {
		expect(availabilityOf('http://schema.org/InStock')).toBe('InStock');
		expect(availabilityOf('https://schema.org/OutOfStock')).toBe('OutOfStock');
		expect(availabilityOf('https://www.schema.org/PreOrder')).toBe('PreOrder');
		expect(availabilityOf('schema:BackOrder')).toBe('BackOrder');
		expect(availabilityOf(' http://schema.org/LimitedAvailability ')).toBe('LimitedAvailability');
	});

	it('reads every short name, in any case and spelling', () => {
		for (const name of AVAILABILITIES) {
			expect(availabilityOf(name)).toBe(name);
			expect(availabilityOf(name.toLowerCase())).toBe(name);
			expect(availabilityOf(name.toUpperCase())).toBe(name);
		}
		expect(availabilityOf('instock')).toBe('InStock');
		expect(availabilityOf('in_stock')).toBe('InStock');
		expect(availabilityOf('out-of-stock')).toBe('OutOfStock');
		expect(availabilityOf('pre_order')).toBe('PreOrder');
	});

	it.each([
		['oos', 'OutOfStock'],
		['In stock', 'InStock'],
		['In stock - ships tomorrow', 'InStock'],
		['Sold out', 'SoldOut'],
		['Out of stock', 'OutOfStock'],
		['Currently unavailable.', 'OutOfStock'],
		['Not available', 'OutOfStock'],
		['Available!', 'InStock'],
		['Ausverkauft', 'SoldOut'],
		['Nicht lieferbar', 'OutOfStock'],
		['Sofort lieferbar', 'InStock'],
		['Auf Lager', 'InStock'],
		['Nicht auf Lager', 'OutOfStock'],
		['Vorrätig', 'InStock'],
		['Rupture de stock', 'OutOfStock'],
		['En stock', 'InStock'],
		['Épuisé', 'SoldOut'],
		['Agotado', 'SoldOut'],
		['¡TEMPORALMENTE    AGOTADO!', 'SoldOut'],
		['Disponible', 'InStock'],
		['No disponible', 'OutOfStock'],
		['Esaurito', 'SoldOut'],
		['Disponibile', 'InStock'],
		['Non disponibile', 'OutOfStock'],
		['Pre-order', 'PreOrder'],
		['Pre-order now, in stock in May', 'PreOrder'],
		['Backorder', 'BackOrder'],
		['Discontinued', 'Discontinued'],
		['Only 3 left', 'LimitedAvailability'],
		['In stock, only 2 left!', 'LimitedAvailability'],
		['Nur noch 4 auf Lager', 'LimitedAvailability'],
		['Есть в наличии', 'InStock'],
		['Нет в наличии', 'OutOfStock'],
		['В наявності', 'InStock'],
		['Немає в наявності', 'OutOfStock'],
		['Produkt dostępny', 'InStock'],
		['Produkt niedostępny', 'OutOfStock'],
		['Skladem', 'InStock'],
		['Není skladem', 'OutOfStock'],
		['Op voorraad', 'InStock'],
		['Niet op voorraad', 'OutOfStock'],
		['Finns i lager', 'InStock'],
		['Ej i lager', 'OutOfStock'],
		['På lager', 'InStock'],
		['在庫あり', 'InStock'],
		['在庫切れ', 'OutOfStock'],
		['5 in stock', 'InStock'],
	] as const)('maps the shop words %j to %s', (words, name) => {
		expect(availabilityOf(words)).toBe(name);
	});

	it('says nothing of text it does not know', () => {
		expect(availabilityOf('Ships in 3 days')).toBeUndefined();
		expect(availabilityOf('Add to cart')).toBeUndefined();
		expect(availabilityOf('')).toBeUndefined();
		expect(availabilityOf('https://schema.org/Nonsense')).toBeUndefined();
	});
});
