import { describe, expect, it } from 'vitest';
import { changedWords, conditionValues, IN_STOCK } from '../../../src/domain/condition/names.js';
import type { Task, Verdict } from '../../../src/domain/task/types.js';

const task = (verdict: Partial<Verdict>, extra: Partial<Task> = {}): Task => ({
	line: 1,
	input: 'https://a.example/',
	verdict: { url: 'https://a.example/', changed: true, reason: 'price', ...verdict },
	...extra,
});

describe('conditionValues', () => {
	it('reads the offer now and before, and the price change as a fraction', () => {
		const values = conditionValues(
			task({ product: { price: 18, currency: 'EUR', availability: 'InStock' }, previous: { price: 20, currency: 'EUR', availability: 'OutOfStock' } }),
		);
		expect(values).toEqual({
			price: 18,
			previous_price: 20,
			currency: 'EUR',
			availability: 'InStock',
			price_change: -0.1,
			in_stock: true,
			was_in_stock: false,
		});
	});

	it('takes the offer before as the same when compare left previous out (nothing in it moved), and as missing on a first sight', () => {
		expect(conditionValues(task({ reason: 'new-body', product: { price: 5, availability: 'InStock' } }))).toMatchObject({
			previous_price: 5,
			price_change: 0,
			in_stock: true,
			was_in_stock: true,
		});
		const first = conditionValues(task({ reason: 'new', product: { price: 5, availability: 'InStock' } }));
		expect(first).toEqual({ price: 5, availability: 'InStock', in_stock: true, was_in_stock: false });
	});

	it('leaves out what is not known; in_stock is false without an availability', () => {
		expect(conditionValues(task({ reason: 'new-body' }))).toEqual({ in_stock: false, was_in_stock: false });
		expect(conditionValues(task({ product: { price: 5 }, previous: { availability: 'InStock' } }))).toEqual({ price: 5, in_stock: false, was_in_stock: true });
		expect(conditionValues(task({ product: { price: 5 }, previous: { price: 0 } }))).not.toHaveProperty('price_change');
	});

	it('gives the counted text and the words changed', () => {
		const probe = { counted: { text: 'Hats 5 EUR', cut: false } } as Task['probe'];
		expect(
			conditionValues(
				task(
					{ reason: 'new-body' },
					{
						probe,
						wordDiff: {
							why: 'diff',
							hunks: [
								[
									[0, 'Hats'],
									[0, ' '],
									[-1, '4 EUR'],
									[1, '5 EUR'],
								],
							],
						},
					},
				),
			),
		).toMatchObject({ text: 'Hats 5 EUR', changed_words: 4 });
	});

	it('counts the availabilities that can be bought now as in stock', () => {
		expect([...IN_STOCK].sort()).toEqual(['InStock', 'InStoreOnly', 'LimitedAvailability', 'OnlineOnly', 'PreSale']);
	});
});

describe('changedWords', () => {
	it('counts words and numbers added and removed, not spaces or punctuation', () => {
		expect(
			changedWords({
				why: 'diff',
				hunks: [
					[
						[0, 'was'],
						[0, ' '],
						[-1, '$24.50,'],
						[1, '$21.00, now!'],
					],
					[[1, ' ']],
				],
			}),
		).toBe(3);
	});

	it('is 0 when only markup moved, Infinity when too different, missing without a diff', () => {
		expect(changedWords({ why: 'same-text' })).toBe(0);
		expect(changedWords({ why: 'too-different' })).toBe(Number.POSITIVE_INFINITY);
		for (const why of ['first-sight', 'no-earlier-text', 'off', 'evicted', 'beyond-cut', 'not-read']) expect(changedWords({ why })).toBeUndefined();
		expect(changedWords(undefined)).toBeUndefined();
	});
});
