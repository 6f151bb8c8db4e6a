import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { churnGuard, type ChurnGuardOptions } from '../../src/stages/churn-guard.js';
import type { Task } from '../../src/types.js';

const known = { v: 1, status: 200, hash: 'h', lastChecked: 0 };
const task = (origin: string, i: number, changed: boolean, isNew = false): Task => ({
	line: i,
	input: `${origin}/${i}`,
	url: `${origin}/${i}`,
	origin,
	record: isNew ? null : known,
	verdict: { url: `${origin}/${i}`, changed, reason: changed ? 'new-body' : 'same-hash' },
	next: { ...known, lastChecked: 1 },
});

async function guard(tasks: Task[], options: Partial<ChurnGuardOptions> = {}) {
	const decisions: Array<[string, boolean]> = [];
	let released = 0;
	const out = await lastValueFrom(
		from(tasks).pipe(
			churnGuard({ maxChurn: 0.9, churnMin: 5, accept: [], ...options }, { onDecision: (origin, d) => decisions.push([origin, d.blocked]), release: () => released++ }),
			toArray(),
		),
	);
	return { out, decisions, released };
}

describe('churnGuard', () => {
	it('holds every change of a host whose known URLs nearly all changed, and lets its unchanged ones through', async () => {
		const tasks = [...Array.from({ length: 6 }, (_, i) => task('https://a', i, true)), task('https://a', 6, false)];
		const { out, decisions } = await guard(tasks);
		expect(decisions).toEqual([['https://a', true]]);
		expect(out.filter((t) => t.skip === 'held')).toHaveLength(6);
		expect(out.filter((t) => t.skip === 'held').every((t) => t.verdict === undefined && t.next === undefined)).toBe(true);
		expect(out.find((t) => t.line === 6)?.verdict?.reason).toBe('same-hash');
	});

	it('passes a host below the ratio, and does not count URLs seen for the first time', async () => {
		const tasks = [
			...Array.from({ length: 10 }, (_, i) => task('https://new', i, true, true)),
			...Array.from({ length: 4 }, (_, i) => task('https://b', i, true)),
			task('https://b', 9, false),
		];
		const { out, decisions } = await guard(tasks);
		expect(decisions).toEqual([['https://b', false]]);
		expect(out.filter((t) => t.skip === 'held')).toHaveLength(0);
		expect(out).toHaveLength(15);
	});

	it('lets a host with too few known URLs through at the end of the run', async () => {
		const { out, decisions } = await guard([task('https://c', 1, true), task('https://c', 2, true)]);
		expect(decisions).toEqual([['https://c', false]]);
		expect(out.every((t) => t.verdict?.changed)).toBe(true);
	});

	it('lets an accepted host through, by origin, hostname or all', async () => {
		const tasks = Array.from({ length: 6 }, (_, i) => task('https://d.example', i, true));
		for (const accept of [['https://d.example'], ['d.example'], 'all' as const]) {
			const { out } = await guard(tasks, { accept });
			expect(out.filter((t) => t.skip === 'held')).toHaveLength(0);
		}
	});

	it('returns the backpressure credit of every buffered task, and marks it so', async () => {
		const { out, released } = await guard(Array.from({ length: 3 }, (_, i) => task('https://e', i, false)));
		expect(released).toBe(3);
		expect(out.every((t) => t.creditReturned)).toBe(true);
	});

	it('is off with maxChurn 0', async () => {
		const { out, decisions } = await guard(Array.from({ length: 6 }, (_, i) => task('https://f', i, true)), { maxChurn: 0 });
		expect(decisions).toEqual([]);
		expect(out.every((t) => !t.skip)).toBe(true);
	});

	it('gives back the credit of each task it buffers, once: a task parked by the probe gave its own already', async () => {
		const tasks = [task('https://a', 0, false), { ...task('https://a', 1, false), creditReturned: true }, { ...task('https://a', 2, false), parked: true }, task('https://a', 3, true)];
		const { out, released } = await guard(tasks);
		expect(released).toBe(2);
		expect(out.find((t) => t.line === 2)?.parked).toBe(true);
		expect(out.every((t) => t.creditReturned)).toBe(true);
	});
});
