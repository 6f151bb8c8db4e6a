import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/net/hosts/book.js';
import { TRUST_AFTER } from '../../src/domain/schedule/signals.js';
import { signalScore } from '../../src/stages/signal-score.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import type { Task, Verdict } from '../../src/domain/task/types.js';
import { fixedClock, NOW } from './deps.js';

const DAY = 86_400_000;
const origin = 'https://a';
const checked = (line: number, changed: boolean, extra: Partial<Task> = {}, reason: Verdict['reason'] = changed ? 'new-body' : '304'): Task => ({
	line,
	input: '',
	url: `${origin}/${line}`,
	origin,
	record: { v: 1, status: 200, lastChecked: NOW - DAY },
	verdict: { url: `${origin}/${line}`, changed, reason },
	...extra,
});

async function run(tasks: Task[]) {
	const book = createHostBook(new MemoryStore(), NOW);
	await book.load([origin]);
	const out = await lastValueFrom(from(tasks).pipe(signalScore({ book, clock: fixedClock }), toArray()));
	return { out, host: book.get(origin) };
}

describe('signalScore', () => {
	it(`trusts a host's lastmod after it announced ${TRUST_AFTER} changes in a row that checks found`, async () => {
		const announced = new Date(NOW - DAY / 2).toISOString();
		const tasks = Array.from({ length: TRUST_AFTER }, (_, i) => checked(i, true, { lastmod: announced }));
		const { out, host } = await run(tasks);
		expect(out).toEqual(tasks);
		expect(host.lastmod).toMatchObject({ right: TRUST_AFTER, wrong: 0, trusted: true, testedAt: NOW });
	});

	it('takes the trust away at once when lastmod said unchanged and a check found a change', async () => {
		const announced = new Date(NOW - DAY / 2).toISOString();
		const tasks = Array.from({ length: TRUST_AFTER }, (_, i) => checked(i, true, { lastmod: announced }));
		tasks.push(checked(99, true, { lastmod: new Date(NOW - 2 * DAY).toISOString() }));
		const { host } = await run(tasks);
		expect(host.lastmod).toMatchObject({ right: TRUST_AFTER, wrong: 1, streak: 0, trusted: false });
		expect(host.lastmod!.reason).toContain('said unchanged and a check found a change');
	});

	it('scores max-age on answers checked while still fresh: unchanged is right, changed is a lie', async () => {
		const fresh = (line: number, changed: boolean) => {
			const one = checked(line, changed);
			one.record!.freshUntil = NOW + DAY;
			return one;
		};
		expect((await run([fresh(1, false), fresh(2, false)])).host.maxAge).toMatchObject({ right: 2, wrong: 0 });
		expect((await run([fresh(1, false), fresh(2, true)])).host.maxAge).toMatchObject({ right: 1, wrong: 1, trusted: false });
	});

	it('learns nothing from URLs without a record, without a signal, or whose verdict observed nothing', async () => {
		const announced = new Date(NOW - DAY / 2).toISOString();
		const { host } = await run([
			{ ...checked(1, true, { lastmod: announced }), record: null },
			checked(2, true),
			checked(3, false, { lastmod: announced }, 'error'),
		]);
		expect(host.lastmod).toBeUndefined();
		expect(host.maxAge).toBeUndefined();
	});
});
