import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { budget } from '../../src/stages/budget.js';
import { candidateOf, pick } from '../../src/domain/schedule/pick.js';
import type { Task } from '../../src/domain/task/types.js';
import { mulberry32 } from '../../bench/lib/prng.js';
import { fixedClock, NOW } from './deps.js';

const DAY = 86_400_000;
const origin = 'https://a';
const known = (line: number, daysAgo: number, rate: number): Task => ({
	line,
	input: '',
	url: `${origin}/${line}`,
	origin,
	record: { v: 1, status: 200, lastChecked: NOW - daysAgo * DAY, rate },
});
const fresh = (line: number): Task => ({ line, input: '', url: `${origin}/${line}`, origin, record: null });

async function run(tasks: Task[], options: { budget?: number; hostBudget?: number; verifyEveryMs?: number }) {
	let released = 0;
	const out = await lastValueFrom(from(tasks).pipe(budget({ verifyEveryMs: 0, ...options }, { clock: fixedClock, release: () => released++ }), toArray()));
	return { out, released, taken: out.filter((task) => !task.skip).map((task) => task.line) };
}

describe('budget', () => {
	it('takes new URLs first, then the known ones a check is worth most on, and marks the rest later', async () => {
		const { out, taken } = await run([known(1, 1, 0.01), known(2, 10, 0.2), fresh(3), known(4, 2, 0.2)], { budget: 2 });
		expect(taken.sort()).toEqual([2, 3]);
		expect(
			out
				.filter((task) => task.skip === 'later')
				.map((task) => task.line)
				.sort(),
		).toEqual([1, 4]);
	});

	it('gives back the backpressure credit of every known URL it holds until the input ends', async () => {
		const { released, out } = await run([known(1, 1, 0.1), known(2, 1, 0.1), fresh(3)], { budget: 5 });
		expect(released).toBe(2);
		expect(out.filter((task) => task.creditReturned)).toHaveLength(2);
	});

	it('passes its chosen on one credit at a time once the input ends, each to be released again downstream', async () => {
		const credits: Array<() => void> = [];
		const out: Task[] = [];
		let done = false;
		from([known(1, 1, 0.1), known(2, 2, 0.1), known(3, 3, 0.1), known(4, 4, 0.1)])
			.pipe(budget({ budget: 3, verifyEveryMs: 0 }, { clock: fixedClock, acquire: () => new Promise<void>((resolve) => credits.push(resolve)) }))
			.subscribe({ next: (task) => out.push(task), complete: () => (done = true) });
		const settle = () => new Promise((resolve) => setImmediate(resolve));
		await settle();
		// The input has ended: the one let go is out, the three chosen wait for credit.
		expect(out.map((task) => task.skip)).toEqual(['later']);
		for (let i = 0; i < 3; i++) {
			credits.shift()!();
			await settle();
			expect(out).toHaveLength(2 + i);
		}
		expect(done).toBe(true);
		expect(out.slice(1).map((task) => [task.line, task.creditReturned])).toEqual([
			[2, false],
			[3, false],
			[4, false],
		]);
	});

	it('is the identity without a budget, and passes skipped tasks on untouched', async () => {
		const skipped: Task = { line: 9, input: 'x', skip: 'rejected' };
		expect((await run([known(1, 1, 0.1), skipped], {})).out).toEqual([known(1, 1, 0.1), skipped]);
		expect((await run([skipped, fresh(2), fresh(3)], { budget: 1 })).out.map((task) => task.skip)).toEqual(['rejected', undefined, 'later']);
	});

	it('takes what pick() takes, with budget and host budget, new URLs among the known', async () => {
		const random = mulberry32(3);
		for (let round = 0; round < 30; round++) {
			const tasks: Task[] = Array.from({ length: 60 }, (_, line) => {
				const host = `https://h${Math.floor(random() * 4)}`;
				if (random() < 0.1) return { line, input: '', url: `${host}/${line}`, origin: host, record: null };
				return {
					line,
					input: '',
					url: `${host}/${line}`,
					origin: host,
					record: { v: 1, status: 200, lastChecked: NOW - Math.floor(random() * 20) * DAY, rate: Math.round(random() * 10) / 10 },
				};
			});
			const options = { budget: 1 + Math.floor(random() * 30), ...(random() < 0.5 ? { hostBudget: 1 + Math.floor(random() * 10) } : {}) };
			// pick() over the known ones, with the budget and host counts the new ones left.
			const used = new Map<string, number>();
			let left = options.budget;
			const newTaken = new Set<number>();
			for (const task of tasks) {
				if (task.record) continue;
				const count = used.get(task.origin!) ?? 0;
				if (left > 0 && count < (options.hostBudget ?? Infinity)) {
					left--;
					used.set(task.origin!, count + 1);
					newTaken.add(task.line);
				}
			}
			const known = tasks.filter((task) => task.record);
			const chosen = pick(
				known.map((task) => candidateOf(task.record, task.origin!, {}, NOW)),
				{ budget: left, hostBudget: options.hostBudget, used },
			);
			const expected = [...newTaken, ...known.filter((_, i) => chosen[i]).map((task) => task.line)].sort((a, b) => a - b);
			const { taken, out } = await run(tasks, options);
			expect(taken.sort((a, b) => a - b)).toEqual(expected);
			expect(out).toHaveLength(60);
		}
	});

	it('lets a URL go as soon as the budget has better ones: it holds O(budget), not every due URL', async () => {
		const input = new Subject<Task>();
		const seen: Task[] = [];
		input.pipe(budget({ budget: 10, verifyEveryMs: 0 }, { clock: fixedClock })).subscribe((task) => seen.push(task));
		for (let line = 0; line < 1000; line++) input.next(known(line, 1 + (line % 7), 0.1));
		expect(seen.filter((task) => task.skip === 'later')).toHaveLength(990);
		input.complete();
		expect(seen.filter((task) => !task.skip)).toHaveLength(10);
	});

	it('with reload, holds no record while a URL waits, and reads the chosen ones again when the input ends', async () => {
		const tasks = [known(1, 1, 0.1), known(2, 9, 0.1), known(3, 5, 0.1)];
		const asked: string[][] = [];
		const reload = async (urls: readonly string[]) => {
			asked.push([...urls]);
			return urls.map((url) => ({ v: 1, status: 200, lastChecked: 0, etag: `"${url}"` }));
		};
		const out = await lastValueFrom(from(tasks).pipe(budget({ budget: 2, verifyEveryMs: 0 }, { clock: fixedClock, reload }), toArray()));
		expect(asked).toEqual([[`${origin}/2`, `${origin}/3`]]);
		expect(out.filter((task) => !task.skip).map((task) => task.record?.etag)).toEqual([`"${origin}/2"`, `"${origin}/3"`]);
		expect(out.find((task) => task.skip === 'later')?.line).toBe(1);
	});

	it('gives back each held task as it came, its less common fields and its input included, without the record it held', async () => {
		const rich: Task = { ...known(1, 9, 0.1), input: ' https://a/1', source: 'sitemap', lastmod: '2030-01-01', from: 'https://a/sitemap.xml', announced: true };
		const plain = known(2, 8, 0.1);
		const letGo = known(3, 1, 0.001);
		const out = await lastValueFrom(from([rich, plain, letGo]).pipe(budget({ budget: 2, verifyEveryMs: 0 }, { clock: fixedClock }), toArray()));
		const { record: _rich, ...richTask } = rich;
		const { record: _plain, ...plainTask } = plain;
		const { record: _letGo, ...letGoTask } = letGo;
		expect(out).toEqual([
			{ ...letGoTask, skip: 'later', creditReturned: true },
			{ ...richTask, creditReturned: true },
			{ ...plainTask, creditReturned: true },
		]);
	});

	describe('verification under a budget', () => {
		const verifyEveryMs = 30 * DAY;
		// Its bound was 2 days ago: due for verification, not a period past it.
		const due = (line: number, rate: number): Task => ({ ...known(line, 1, rate), record: { ...known(line, 1, rate).record!, verifiedAt: NOW - 32 * DAY } });

		it("rides on the budget's choice: a URL due for verification gets no check of its own", async () => {
			const { taken } = await run([due(1, 0.001), known(2, 5, 0.5)], { budget: 1, verifyEveryMs });
			expect(taken).toEqual([2]);
		});

		it('counts per origin the URLs it left for later past their bound', async () => {
			const counts: Array<[string, number]> = [];
			await lastValueFrom(
				from([due(1, 0.001), due(2, 0.001), known(3, 5, 0.5)]).pipe(
					budget({ budget: 1, verifyEveryMs }, { clock: fixedClock, onPastBound: (seen) => counts.push(...seen) }),
					toArray(),
				),
			);
			expect(counts).toEqual([[origin, 2]]);
		});

		it('gives one its own check where a trusted signal would hide it (mustVerify), or a period past its bound', async () => {
			expect((await run([{ ...due(1, 0.001), mustVerify: true }, known(2, 5, 0.5)], { budget: 1, verifyEveryMs })).taken).toEqual([1]);
			const overdue: Task = { ...known(1, 1, 0.001), record: { ...known(1, 1, 0.001).record!, verifiedAt: NOW - 61 * DAY } };
			expect((await run([overdue, known(2, 5, 0.5)], { budget: 1, verifyEveryMs })).taken).toEqual([1]);
		});
	});
});
