import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { compileCondition } from '../../src/domain/condition/compile.js';
import { when } from '../../src/stages/when.js';
import type { Task, Verdict } from '../../src/domain/task/types.js';
import type { UrlRecord } from '../../src/store/model/types.js';

const next = { status: 200, hash: 'h2' } as UrlRecord;
const task = (verdict: Partial<Verdict>): Task => ({
	line: 1,
	input: 'https://a.example/',
	verdict: { url: 'https://a.example/', changed: true, reason: 'price', ...verdict },
	next: { ...next },
});
const run = async (expression: string, tasks: Task[]) => lastValueFrom(of(...tasks).pipe(when(compileCondition(expression)), toArray()));

describe('when stage', () => {
	it('turns a change the condition does not meet into unmet, keeping everything else for the commit', async () => {
		const [cheap, dear] = await run('price < 40', [
			task({ product: { price: 35 }, previous: { price: 45 } }),
			task({ product: { price: 45 }, previous: { price: 50 } }),
		]);
		expect(cheap!.verdict).toMatchObject({ changed: true, reason: 'price' });
		expect(dear!.verdict).toEqual({ url: 'https://a.example/', changed: false, reason: 'unmet', product: { price: 45 }, previous: { price: 50 } });
		expect(dear!.next).toEqual(next);
	});

	it('holds a first sight to it too', async () => {
		const out = await run('price < 40', [
			task({ reason: 'new', product: { price: 30 } }),
			task({ reason: 'new', product: { price: 50 } }),
			task({ reason: 'new' }),
		]);
		expect(out.map((t) => t.verdict!.reason)).toEqual(['new', 'unmet', 'unmet']);
	});

	it('leaves errors and unchanged pages alone', async () => {
		const out = await run('price < 40', [
			task({ changed: false, reason: 'error' }),
			task({ changed: false, reason: '304' }),
			{ line: 2, input: 'x', skip: 'rejected' },
		]);
		expect(out.map((t) => t.verdict?.reason ?? t.skip)).toEqual(['error', '304', 'rejected']);
	});

	it('reads back in stock from the availability before and now', async () => {
		const out = await run('in_stock and not was_in_stock', [
			task({ reason: 'availability', product: { availability: 'InStock' }, previous: { availability: 'OutOfStock' } }),
			task({ reason: 'availability', product: { availability: 'OutOfStock' }, previous: { availability: 'InStock' } }),
			task({ reason: 'availability', product: { availability: 'LimitedAvailability' }, previous: { availability: 'InStock' } }),
		]);
		expect(out.map((t) => t.verdict!.changed)).toEqual([true, false, false]);
	});
});
