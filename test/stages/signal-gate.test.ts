import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/net/hosts/book.js';
import { newSignalTrust } from '../../src/domain/schedule/signals.js';
import { signalGate } from '../../src/stages/signal-gate.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import type { HostRecord, SignalTrust } from '../../src/store/model/types.js';
import type { Task } from '../../src/domain/task/types.js';
import { fixedClock, NOW } from './deps.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const VERIFY_EVERY = 30 * DAY;
const origin = 'https://a';
const trusted: SignalTrust = { ...newSignalTrust(), right: 5, streak: 5, trusted: true, reason: 'test', testedAt: NOW };
// Checked a day ago and verified then: `--verify-every` does not make it due.
const task = (line: number, extra: Partial<Task> = {}): Task => ({
	line,
	input: '',
	url: `${origin}/${line}`,
	origin,
	record: { v: 1, status: 200, lastChecked: NOW - DAY, verifiedAt: NOW - DAY },
	...extra,
});

async function run(tasks: Task[], host: Partial<HostRecord>, random = 0.5) {
	const book = createHostBook(new MemoryStore(), NOW);
	await book.load([origin]);
	book.set(origin, { ...book.get(origin), ...host });
	const out = await lastValueFrom(from(tasks).pipe(signalGate({ verifyEveryMs: VERIFY_EVERY }, { book, clock: fixedClock, random: () => random }), toArray()));
	return { out, host: book.get(origin) };
}

describe('signalGate', () => {
	it('skips a URL whose trusted lastmod dates before its last check, and counts the skip on the host', async () => {
		const { out, host } = await run([task(1, { lastmod: new Date(NOW - 2 * DAY).toISOString() })], { lastmod: trusted });
		expect(out[0]!.skip).toBe('signal');
		expect(host.lastmod).toMatchObject({ skipped: 1, sampled: 0 });
	});

	it('checks the sample anyway (random under 1%), counted as sampled', async () => {
		const { out, host } = await run([task(1, { lastmod: new Date(NOW - 2 * DAY).toISOString() })], { lastmod: trusted }, 0.001);
		expect(out[0]!.skip).toBeUndefined();
		expect(host.lastmod).toMatchObject({ skipped: 0, sampled: 1 });
	});

	it(
		'samples 1% a day, not a run: a quarter of it when the host runs every 6 hours, ' + 'all of it when runs are a day or more apart or not known yet',
		async () => {
			const lastmod = new Date(NOW - 2 * DAY).toISOString();
			const skip = async (runInterval: number | undefined, random: number) =>
				(await run([task(1, { lastmod })], { lastmod: trusted, ...(runInterval === undefined ? {} : { runInterval }) }, random)).out[0]!.skip;
			// 0.005 falls in 1% but not in the ~0.25% of a run 6 hours after the last.
			expect(await skip(6 * HOUR, 0.005)).toBe('signal');
			expect(await skip(6 * HOUR, 0.002)).toBeUndefined();
			for (const interval of [DAY, 7 * DAY, undefined]) expect(await skip(interval, 0.005)).toBeUndefined();
		},
	);

	it('marks a URL whose trusted lastmod is after its last check as announced, for the budget', async () => {
		const { out } = await run([task(1, { lastmod: new Date(NOW - DAY / 2).toISOString() })], { lastmod: trusted });
		expect(out[0]).toMatchObject({ announced: true });
		expect(out[0]!.skip).toBeUndefined();
	});

	it('skips nothing on a host whose lastmod is not trusted, nor on one whose trust went untested for half of --verify-every', async () => {
		const lastmod = new Date(NOW - 2 * DAY).toISOString();
		expect((await run([task(1, { lastmod })], { lastmod: { ...trusted, trusted: false } })).out[0]!.skip).toBeUndefined();
		expect((await run([task(1, { lastmod })], { lastmod: { ...trusted, testedAt: NOW - VERIFY_EVERY / 2 } })).out[0]!.skip).toBeUndefined();
	});

	it('skips a URL whose last answer is still fresh by a trusted max-age, and not once it is stale', async () => {
		const fresh = task(1);
		fresh.record!.freshUntil = NOW + 1000;
		const stale = task(2);
		stale.record!.freshUntil = NOW - 1000;
		const { out, host } = await run([fresh, stale], { maxAge: trusted });
		expect(out.map((one) => one.skip)).toEqual(['signal', undefined]);
		expect(host.maxAge).toMatchObject({ skipped: 1 });
	});

	it('never skips a URL that --verify-every has made due, nor a new one', async () => {
		const due = task(1, { lastmod: new Date(NOW - 40 * DAY).toISOString() });
		due.record = { v: 1, status: 200, lastChecked: NOW - DAY, verifiedAt: NOW - VERIFY_EVERY };
		const fresh: Task = { line: 2, input: '', url: `${origin}/2`, origin, record: null, lastmod: new Date(NOW - 40 * DAY).toISOString() };
		const { out } = await run([due, fresh], { lastmod: trusted });
		expect(out.map((one) => one.skip)).toEqual([undefined, undefined]);
		// The signal would have hidden it past its bound: under a budget it gets a check of its own.
		expect(out.map((one) => one.mustVerify)).toEqual([true, undefined]);
	});
});
