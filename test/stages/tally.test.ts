import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChurnScale } from '../../src/stages/churn-guard.js';
import { tally } from '../../src/stages/tally.js';
import { RECORD_VERSION } from '../../src/store/model/types.js';
import type { Reason, Task } from '../../src/domain/task/types.js';

const known = { v: RECORD_VERSION, status: 200, hash: 'h', lastChecked: 0 };
const judged = (origin: string, n: number, reason: Reason, isNew = false): Task => ({
	line: n,
	input: `${origin}/${n}`,
	url: `${origin}/${n}`,
	origin,
	record: isNew ? null : known,
	verdict: { url: `${origin}/${n}`, changed: reason === 'candidate', reason },
});

async function run(tasks: Task[]) {
	const reports: Array<[string, ChurnScale]> = [];
	const out = await lastValueFrom(
		from(tasks).pipe(
			tally((origin, figures) => reports.push([origin, figures])),
			toArray(),
		),
	);
	return { out, reports };
}

describe('tally', () => {
	it('reports per origin the known URLs judged and how many were passed on as candidates, after each', async () => {
		const { reports } = await run([
			judged('https://a', 1, 'candidate'),
			judged('https://a', 2, '304'),
			judged('https://b', 1, '304'),
			judged('https://a', 3, 'candidate'),
		]);
		expect(reports).toEqual([
			['https://a', { probed: 1, passedOn: 1 }],
			['https://a', { probed: 2, passedOn: 1 }],
			['https://b', { probed: 1, passedOn: 0 }],
			['https://a', { probed: 3, passedOn: 2 }],
		]);
	});

	it('does not count new URLs, errors or tasks without a verdict, and passes every task on', async () => {
		const unjudged: Task = { line: 9, input: 'https://a/9', url: 'https://a/9', origin: 'https://a', skip: 'not-due', record: known };
		const tasks = [judged('https://a', 1, 'candidate', true), judged('https://a', 2, 'error'), unjudged];
		const { out, reports } = await run(tasks);
		expect(reports).toEqual([]);
		expect(out).toEqual(tasks);
	});

	it('starts from zero for each subscription (each run)', async () => {
		const reports: ChurnScale[] = [];
		const counting = tally((_origin, figures) => reports.push(figures));
		for (let i = 0; i < 2; i++) await lastValueFrom(from([judged('https://a', 1, 'candidate')]).pipe(counting, toArray()));
		expect(reports).toEqual([
			{ probed: 1, passedOn: 1 },
			{ probed: 1, passedOn: 1 },
		]);
	});
});
