import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/base/errors/index.js';
import { checkTemplate, formatPrice, messageOf } from '../../../src/io/notify/message.js';
import type { Task } from '../../../src/domain/task/types.js';

const task = (verdict: Partial<NonNullable<Task['verdict']>>, more: Partial<Task> = {}): Task => ({
	line: 1,
	input: 'x',
	url: 'https://shop.example/kettle',
	verdict: { url: 'https://shop.example/kettle', changed: true, reason: 'new-body', ...verdict },
	...more,
});

describe('messageOf', () => {
	it('a price move: the title says so, the body gives the price before → after with the currency', () => {
		const message = messageOf(
			task({
				reason: 'price',
				product: { price: 21, currency: 'EUR', availability: 'InStock' },
				previous: { price: 24.5, currency: 'EUR', availability: 'InStock' },
			}),
		);
		expect(message.title).toBe('Price changed: https://shop.example/kettle');
		expect(message.body).toBe('https://shop.example/kettle\nreason: price\nprice 24.5 EUR → 21 EUR\navailability InStock');
		expect(message.fields).toEqual({
			reason: 'price',
			product: { price: 21, currency: 'EUR', availability: 'InStock' },
			previous: { price: 24.5, currency: 'EUR', availability: 'InStock' },
		});
	});

	it('the same wording as Atom and rules test: a currency that moved is a price move', () => {
		const message = messageOf(task({ reason: 'price', product: { price: 21, currency: 'USD' }, previous: { price: 21, currency: 'EUR' } }));
		expect(message.body).toBe('https://shop.example/kettle\nreason: price\nprice 21 EUR → 21 USD');
	});

	it('a restock: availability before → after', () => {
		const message = messageOf(
			task({ reason: 'availability', product: { price: 9.99, availability: 'InStock' }, previous: { price: 9.99, availability: 'OutOfStock' } }),
		);
		expect(message.body).toBe('https://shop.example/kettle\nreason: availability\nprice 9.99\navailability OutOfStock → InStock');
	});

	it('any other page: the URL, the reason and the word diff', () => {
		const message = messageOf(
			task(
				{},
				{
					wordDiff: {
						why: 'diffed',
						hunks: [
							[
								[0, 'Price '],
								[-1, '$10'],
								[1, '$12'],
								[0, ' today'],
							],
						],
					},
				},
			),
		);
		expect(message).toMatchObject({
			title: 'Changed: https://shop.example/kettle',
			body: 'https://shop.example/kettle\nreason: new-body\n\nPrice [-$10-]{+$12+} today',
			fields: { reason: 'new-body' },
		});
	});

	it('a change whose text is the same: its note, in the body and as a field', () => {
		const note = 'the text is the same; the bytes changed: 1,204 → 1,231 bytes, in the scripts';
		const message = messageOf(task({ note }, { wordDiff: { why: 'same-text' } }));
		expect(message).toMatchObject({ body: `https://shop.example/kettle\nreason: new-body\n${note}`, fields: { reason: 'new-body', note } });
		expect(messageOf(task({ note }), '{reason}: {note}').body).toBe(`new-body: ${note}`);
	});

	it('a template fills its placeholders', () => {
		const message = messageOf(
			task({ reason: 'price', product: { price: 21, currency: 'EUR' }, previous: { price: 24.5 } }),
			'{url} {reason}: {previous_price} → {price} {currency} ({availability})',
		);
		expect(message.body).toBe('https://shop.example/kettle price: 24.50 → 21.00 EUR ()');
	});
});

describe('checkTemplate', () => {
	it('refuses an unknown placeholder, naming the known ones', () => {
		expect(() => checkTemplate('{prize}')).toThrow(UsageError);
		expect(() => checkTemplate('{prize}')).toThrow('unknown placeholder {prize}; use {url}, {reason}, {price}');
		expect(() => checkTemplate('{url} {diff}')).not.toThrow();
	});
});

describe('formatPrice', () => {
	it('two decimals unless the price has more', () => {
		expect([formatPrice(21), formatPrice(24.5), formatPrice(0.125), formatPrice(undefined)]).toEqual(['21.00', '24.50', '0.125', '']);
	});
});
