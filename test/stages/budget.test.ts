import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/hosts/book.js';
import { budget } from '../../src/stages/budget.js';
import { MemoryStore } from '../../src/store/memory.js';
import type { Task } from '../../src/types.js';
import { fixedClock, NOW } from './deps.js';

const DAY = 86_400_000;
const origin = 'https://a';
const known = (line: number, daysAgo: number, rate: number): Task => ({ line, input: '', url: `${origin}/${line}`, origin, record: { v: 1, status: 200, lastChecked: NOW - daysAgo * DAY, rate } });
const fresh = (line: number): Task => ({ line, input: '', url: `${origin}/${line}`, origin, record: null });

async function run(tasks: Task[], options: { budget?: number; hostBudget?: number }) {
	const book = createHostBook(new MemoryStore(), NOW);
	await book.load([origin]);
	let released = 0;
	const out = await lastValueFrom(from(tasks).pipe(budget({ ...options, verifyEveryMs: 0 }, { book, clock: fixedClock, release: () => released++ }), toArray()));
	return { out, released, taken: out.filter((task) => !task.skip).map((task) => task.line) };
}

describe('budget', () => {
	it('takes new URLs first, then the known ones a check is worth most on, and marks the rest later', async () => {
		const { out, taken } = await run([known(1, 1, 0.01), known(2, 10, 0.2), fresh(3), known(4, 2, 0.2)], { budget: 2 });
		expect(taken.sort()).toEqual([2, 3]);
		expect(out.filter((task) => task.skip === 'later').map((task) => task.line).sort()).toEqual([1, 4]);
	});

	it('gives back the backpressure credit of every known URL it holds until the input ends', async () => {
		const { released, out } = await run([known(1, 1, 0.1), known(2, 1, 0.1), fresh(3)], { budget: 5 });
		expect(released).toBe(2);
		expect(out.filter((task) => task.creditReturned)).toHaveLength(2);
	});

	it('is the identity without a budget, and passes skipped tasks on untouched', async () => {
		const skipped: Task = { line: 9, input: 'x', skip: 'rejected' };
		expect((await run([known(1, 1, 0.1), skipped], {})).out).toEqual([known(1, 1, 0.1), skipped]);
		expect((await run([skipped, fresh(2), fresh(3)], { budget: 1 })).out.map((task) => task.skip)).toEqual(['rejected', undefined, 'later']);
	});
});
