import { from, lastValueFrom, map, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { churnGuard, describeChurn, type ChurnDecision, type ChurnGuardOptions, type ChurnScale } from '../../src/stages/churn-guard.js';
import type { Task } from '../../src/domain/task/types.js';

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

// A fetch's task: its verdict came from a downloaded body, a sample of the host's candidates.
const fetched = (origin: string, i: number, changed: boolean): Task => ({ ...task(origin, i, changed), fetched: true });
const gone = (origin: string, i: number): Task => ({ ...task(origin, i, true), verdict: { url: `${origin}/${i}`, changed: true, reason: 'gone' } });

async function guard(tasks: Task[], options: Partial<ChurnGuardOptions> = {}) {
	const decisions: Array<[string, boolean]> = [];
	const reports: ChurnDecision[] = [];
	let released = 0;
	const out = await lastValueFrom(
		from(tasks).pipe(
			churnGuard(
				{ maxChurn: 0.9, churnMin: 5, accept: [], ...options },
				{
					onDecision: (origin, d) => {
						decisions.push([origin, d.blocked]);
						reports.push(d);
					},
					release: () => released++,
				},
			),
			toArray(),
		),
	);
	return { out, decisions, reports, released };
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
		const { out, decisions } = await guard(
			Array.from({ length: 6 }, (_, i) => task('https://f', i, true)),
			{ maxChurn: 0 },
		);
		expect(decisions).toEqual([]);
		expect(out.every((t) => !t.skip)).toBe(true);
	});

	it('gives back the credit of each task it buffers, once: a task parked by the probe gave its own already', async () => {
		const tasks = [
			task('https://a', 0, false),
			{ ...task('https://a', 1, false), creditReturned: true },
			{ ...task('https://a', 2, false), parked: true },
			task('https://a', 3, true),
		];
		const { out, released } = await guard(tasks);
		expect(released).toBe(2);
		expect(out.find((t) => t.line === 2)?.parked).toBe(true);
		expect(out.every((t) => t.creditReturned)).toBe(true);
	});

	describe('over a sample of the URLs probed (a fetch after a candidates sweep)', () => {
		const scale = (figures: ChurnScale) => ({ scale: (origin: string) => (origin === 'https://s' ? figures : undefined) });

		it('lets a host whose candidates are under maxChurn of its probed URLs through at once, buffering nothing', async () => {
			const tasks = Array.from({ length: 30 }, (_, i) => fetched('https://s', i, true));
			const { out, reports, released } = await guard(tasks, scale({ probed: 3000, passedOn: 200 }));
			expect(reports).toEqual([{ blocked: false, changed: 200, probed: 3000, sample: { changed: 1, fetched: 1 } }]);
			expect(released).toBe(0);
			expect(out.every((t) => t.verdict?.changed)).toBe(true);
		});

		it("blocks when the sample's changed share, times the candidates, reaches maxChurn of the URLs probed", async () => {
			const tasks = Array.from({ length: 8 }, (_, i) => fetched('https://s', i, true));
			const { out, reports } = await guard(tasks, scale({ probed: 3000, passedOn: 2900 }));
			expect(reports).toEqual([{ blocked: true, changed: 2900, probed: 3000, sample: { changed: 5, fetched: 5 } }]);
			expect(out.filter((t) => t.skip === 'held')).toHaveLength(8);
			expect(describeChurn('https://s', reports[0]!)).toBe('https://s: about 2900 of its first 3000 known URLs changed (5 of 5 fetched)');
		});

		it('passes when too few of the sample changed: 3 of 5 stand for 1740 of 3000', async () => {
			const tasks = [0, 1, 2, 3, 4].map((i) => fetched('https://s', i, i < 3));
			const { reports } = await guard(tasks, scale({ probed: 3000, passedOn: 2900 }));
			expect(reports).toEqual([{ blocked: false, changed: 1740, probed: 3000, sample: { changed: 3, fetched: 5 } }]);
		});

		it('judges at the end a host with fewer candidates than churnMin, unless it probed fewer than churnMin', async () => {
			const tasks = [0, 1, 2, 3].map((i) => fetched('https://s', i, true));
			// Six candidates, four fetched (two failed): all four changed, so about six of six.
			expect((await guard(tasks, scale({ probed: 6, passedOn: 6 }))).reports).toEqual([
				{ blocked: true, changed: 6, probed: 6, sample: { changed: 4, fetched: 4 } },
			]);
			expect((await guard(tasks, scale({ probed: 4, passedOn: 4 }))).decisions).toEqual([['https://s', false]]);
		});

		it('counts only fetched URLs: one judged before the fetch is in `probed` already, and passes unless it changed', async () => {
			// A crawl: 304s come straight through, ahead of the fetched candidates; a URL gone in the sweep phase is held with them.
			const unchanged = [10, 11, 12].map((i) => task('https://s', i, false));
			const tasks = [...unchanged, gone('https://s', 13), ...[0, 1, 2, 3, 4].map((i) => fetched('https://s', i, true))];
			const { out, reports, released } = await guard(tasks, scale({ probed: 100, passedOn: 95 }));
			expect(reports).toEqual([{ blocked: true, changed: 95, probed: 100, sample: { changed: 5, fetched: 5 } }]);
			// The unchanged ones went straight through; the fifth sample decided.
			expect(released).toBe(5);
			expect(out.slice(0, 3)).toEqual(unchanged);
			expect(out.filter((t) => t.skip === 'held').map((t) => t.line)).toEqual([13, 0, 1, 2, 3, 4]);
		});

		it('waits on running counts until churnMin URLs were probed, then passes at once when few were candidates', async () => {
			// A crawl's sweep phase counts as it goes: here the guard sees each fetched task once its sweep counts grew.
			const figures = { probed: 2, passedOn: 2 };
			const grow = (task: Task, probed: number, passedOn: number): Task => {
				Object.assign(figures, { probed, passedOn });
				return task;
			};
			const tasks = from([fetched('https://s', 0, true), fetched('https://s', 1, true), fetched('https://s', 2, true)]);
			const decisions: boolean[] = [];
			const out = await lastValueFrom(
				tasks.pipe(
					map((t) => (t.line === 2 ? grow(t, 40, 3) : t)),
					churnGuard({ maxChurn: 0.9, churnMin: 5, accept: [], scale: () => figures }, { onDecision: (_, d) => decisions.push(d.blocked) }),
					toArray(),
				),
			);
			expect(decisions).toEqual([false]);
			expect(out.map((t) => t.line)).toEqual([0, 1, 2]);
		});
	});

	describe("with the URLs' change chances", () => {
		// Each URL's chance of having changed since its last check, as domain/schedule/surprise.ts gives it.
		const withChance = (t: Task, chance: number | undefined): Task => ({
			...t,
			record: { ...known, ...(chance === undefined ? {} : { checks: [1], rate: chance }) },
		});
		const chance = (t: Task) => (t.record?.checks ? t.record.rate : undefined);
		const host = (n: number, p: number | undefined, changed = n) => Array.from({ length: n }, (_, i) => withChance(task('https://a', i, i < changed), p));

		it('passes a host whose URLs nearly all changed where their chances said they would (a budget picks those)', async () => {
			const { out, decisions, reports } = await guard(host(20, 0.9), { churnMin: 20, chance });
			expect(decisions).toEqual([['https://a', false]]);
			expect(out.filter((t) => t.skip === 'held')).toHaveLength(0);
			expect(reports[0]!.expected).toMatchObject({ judged: 20, changed: 20 });
			expect(reports[0]!.expected!.predicted).toBeCloseTo(18, 6);
		});

		it('holds back a host whose URLs all changed where few were due to: an interstitial, a redesign', async () => {
			const { out, decisions, reports } = await guard(host(20, 0.2), { churnMin: 20, chance });
			expect(decisions).toEqual([['https://a', true]]);
			expect(out.filter((t) => t.skip === 'held')).toHaveLength(20);
			expect(describeChurn('https://a', reports[0]!)).toBe('https://a: 20 of its first 20 known URLs changed, where their change rates predicted 4.0 of 20');
		});

		it('judges by the share alone where most URLs have no history yet, as without chances', async () => {
			const mixed = [...host(5, 0.9), ...Array.from({ length: 15 }, (_, i) => withChance(task('https://a', 100 + i, true), undefined))];
			expect((await guard(mixed, { churnMin: 20, chance })).decisions).toEqual([['https://a', true]]);
			expect((await guard(host(20, undefined), { churnMin: 20, chance })).decisions).toEqual([['https://a', true]]);
		});

		it('still needs the share: surprising but few changes pass', async () => {
			expect((await guard(host(20, 0.01, 10), { churnMin: 20, chance })).decisions).toEqual([['https://a', false]]);
		});

		it('refuses a surprise level outside (0, 1)', () => {
			expect(() => churnGuard({ maxChurn: 0.9, churnMin: 5, accept: [], surprise: 0 }, { onDecision: () => {} })).toThrow(/surprise/);
		});
	});
});
