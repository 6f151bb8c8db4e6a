import { describe, expect, it } from 'vitest';
import { readStatement } from '../../../src/domain/product/statement.js';

const read = (text: string) => readStatement(text)?.availability;

describe('readStatement', () => {
	it.each([
		// Negated in-stock phrases, as the issue lists them: never InStock.
		["This item isn't in stock right now", 'OutOfStock'],
		['No longer in stock', 'OutOfStock'],
		['Not currently available', 'OutOfStock'],
		['Non disponible', 'OutOfStock'],
		["We don't know when or if this item will be back in stock.", 'OutOfStock'],
		['When this arrives in stock', 'OutOfStock'],
		['Notify me when available', 'OutOfStock'],
		['Ist derzeit leider nicht auf Lager', 'OutOfStock'],
		['Niet beschikbaar', 'OutOfStock'],
		['Não disponível', 'OutOfStock'],
		['Tidak tersedia', 'OutOfStock'],
		['Stok habis', 'OutOfStock'],
		['Mevcut değil', 'OutOfStock'],
		['Brak na stanie', 'OutOfStock'],
		['没有现货', 'OutOfStock'],
		['غير متوفر', 'OutOfStock'],
		['לא במלאי', 'OutOfStock'],
		['Нет в наличии', 'OutOfStock'],
		['In stock: no', 'OutOfStock'],
		['0 in stock', 'OutOfStock'],
	] as const)('reads the negated %j as %s', (text, availability) => {
		expect(read(text)).toBe(availability);
	});

	it.each([
		['Back in stock soon', 'OutOfStock'],
		['Will be back in stock on 12 May', 'OutOfStock'],
		['Available from 12 May', 'OutOfStock'],
		['Bald wieder verfügbar', 'OutOfStock'],
		['Binnenkort leverbaar', 'OutOfStock'],
		['Dostępne wkrótce', 'OutOfStock'],
		['Disponível em breve', 'OutOfStock'],
		['Coming soon', 'OutOfStock'],
		['Awaiting stock', 'OutOfStock'],
		['入荷予定', 'OutOfStock'],
		['Bientôt', 'OutOfStock'],
	] as const)('reads %j, in the future, as %s: it cannot be had now', (text, availability) => {
		expect(read(text)).toBe(availability);
	});

	it.each([
		['Join the waitlist', 'OutOfStock'],
		['E-mail me when back in stock', 'OutOfStock'],
		['Benachrichtigen, wenn verfügbar', 'OutOfStock'],
		["M'avertir de la disponibilité", 'OutOfStock'],
		['Avísame', 'OutOfStock'],
		['Pre-order now', 'PreOrder'],
		['Out of stock – available for pre-order', 'PreOrder'],
		['More on order', 'OutOfStock'],
		['Backordered: ships in 2-3 weeks', 'BackOrder'],
		['Only 3 left', 'LimitedAvailability'],
		['Nur noch 2 auf Lager', 'LimitedAvailability'],
		['품절임박', 'LimitedAvailability'],
		['품절', 'SoldOut'],
		['Sold out', 'SoldOut'],
		['In stock', 'InStock'],
		['Back in stock!', 'InStock'],
		['Available now', 'InStock'],
	] as const)('reads %j as %s', (text, availability) => {
		expect(read(text)).toBe(availability);
	});

	it('says how the words around the phrase read it', () => {
		expect(readStatement("This item isn't in stock right now")).toEqual({ availability: 'OutOfStock', phrase: 'in stock', read: `negated by "isn't"` });
		expect(readStatement('Available from 12 May')).toEqual({ availability: 'OutOfStock', phrase: 'available', read: 'in the future ("from 12")' });
		expect(readStatement('In stock')).toEqual({ availability: 'InStock', phrase: 'in stock' });
	});

	it('reads nothing of text about something else, or of "available" in a sentence', () => {
		for (const text of [
			'Pickup currently unavailable at Main Street',
			'This Product is NOT Available For VAT Relief',
			'Also available in blue',
			'Ships in 3 days',
			'La lista no está disponible.',
			'',
		])
			expect(read(text), text).toBeUndefined();
	});

	it('reads a stock phrase that holds a word of something else: Shopware\'s "ready to ship" in Spanish, Korean, Greek', () => {
		for (const text of [
			'Envío inmediato, entrega en aprox. 1-3 días laborables',
			'배송 준비 완료, 예상 배송 시간: 1-3 영업일',
			'Έτοιμος για αποστολή, εκτιμώμενος χρόνος παράδοσης: 1-3 εργάσιμες ημέρες',
		])
			expect(read(text), text).toBe('InStock');
		expect(read('Envío no disponible')).toBeUndefined();
	});
});
