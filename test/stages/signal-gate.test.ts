import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/hosts/book.js';
import { newSignalTrust, SIGNAL_SAMPLE, TRUST_AFTER } from '../../src/schedule/signals.js';
import { signalGate } from '../../src/stages/signal-gate.js';
import { MemoryStore } from '../../src/store/memory.js';
import type { Task } from '../../src/types.js';
import { fixedClock, NOW } from './deps.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const origin = 'https://a';
// Checked a day ago; the sitemap dates its last change a week ago: a trusted lastmod says unchanged.
const known = (line: number): Task => ({ line, input: '', url: `${origin}/${line}`, origin, lastmod: new Date(NOW - 7 * DAY).toISOString(), record: { v: 1, status: 200, lastChecked: NOW - DAY } });

async function gate(runInterval: number | undefined, random: number) {
	const book = createHostBook(new MemoryStore(), NOW);
	await book.load([origin]);
	const lastmod = { ...newSignalTrust(), right: TRUST_AFTER, streak: TRUST_AFTER, trusted: true };
	book.set(origin, { ...book.get(origin), lastmod, ...(runInterval === undefined ? {} : { runInterval }) });
	const out = await lastValueFrom(from([known(1)]).pipe(signalGate({ verifyEveryMs: 0 }, { book, clock: fixedClock, random: () => random }), toArray()));
	return { skip: out[0]!.skip, trust: book.get(origin).lastmod! };
}

describe('signalGate', () => {
	it('skips a URL a trusted lastmod says is unchanged, but for the sample checked anyway', async () => {
		expect(await gate(DAY, 0.5)).toMatchObject({ skip: 'signal', trust: { skipped: 1, sampled: 0 } });
		expect(await gate(DAY, SIGNAL_SAMPLE / 2)).toMatchObject({ skip: undefined, trust: { skipped: 0, sampled: 1 } });
	});

	it('samples SIGNAL_SAMPLE a day, not a run: a quarter of it when the host runs every 6 hours, all of it when runs are a day or more apart or not known yet', async () => {
		// 0.005 falls in 1% but not in the 0.25% of a run 6 hours after the last.
		expect((await gate(6 * HOUR, 0.005)).skip).toBe('signal');
		expect((await gate(6 * HOUR, 0.002)).skip).toBeUndefined();
		for (const interval of [DAY, 7 * DAY, undefined]) expect((await gate(interval, 0.005)).skip).toBeUndefined();
	});
});
