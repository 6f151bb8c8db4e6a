import { lastValueFrom, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/net/hosts/book.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import type { QueueStats } from '../../src/store/model/due.js';
import { admitInputs } from '../../src/watch/admission.js';
import type { Admitted } from '../../src/watch/admit.js';
import { clockOf } from '../../src/watch/clock.js';
import type { InputBatch } from '../../src/watch/inputs.js';

const T = Date.parse('2030-01-01T00:00:00Z');
const claimAll = { max: 100, perHost: 100, leaseMs: 60_000, rate: 1e6, burst: 100 };

async function admitted(hostGapMs: number | undefined) {
	const store = new MemoryStore();
	// URLs admitted at T, by a clock held there; the queue's own clock runs on from T at the wall's pace since 1970, so they are all due.
	const clock = clockOf({ at0: T, wall0: 0, scale: 1 }, () => 0);
	const queue = await store.dueQueue(clock.queue);
	const said: { admitted: Admitted[]; settled: QueueStats[]; diagnosed: string[]; observed: QueueStats[] } = {
		admitted: [],
		settled: [],
		diagnosed: [],
		observed: [],
	};
	const lines = ['https://a.test/1', 'https://a.test/2', 'mailto:someone@a.test'].map((text, i) => ({ line: i + 1, text, source: 'urls.txt' }));
	const batches: InputBatch[] = [
		{ source: 'urls.txt', generation: 1, complete: true, last: true, lines },
		{ source: '', generation: 0, complete: false, last: true, lines: [], settled: true },
	];
	await lastValueFrom(
		admitInputs(of(...batches), {
			queue,
			store,
			book: createHostBook(store, T, { auditRate: 0.05 }),
			clock,
			say: { admitted: (_batch, result) => void said.admitted.push(result), settled: (stats) => void said.settled.push(stats) },
			diagnose: (line) => void said.diagnosed.push(line),
			observer: { queue: (stats) => void said.observed.push(stats) },
			hostGapMs,
		}),
		{ defaultValue: undefined },
	);
	const first = await queue.claim(claimAll);
	const second = await queue.claim(claimAll);
	return { said, claimed: [...first.entries, ...second.entries].map((entry) => entry.url) };
}

describe('admitInputs', () => {
	it("puts a batch's URLs due now, names its lines that are not URLs, and tells the schedule's figures once every input's first reading is in", async () => {
		const { said, claimed } = await admitted(undefined);
		expect(said.admitted).toMatchObject([{ added: 2, listed: 2 }]);
		expect(said.diagnosed).toEqual(['urls.txt line 3: scheme mailto: is not http or https']);
		expect(said.settled).toMatchObject([{ size: 2, backlog: 2 }]);
		expect(said.observed).toEqual(said.settled);
		expect(claimed).toEqual(['https://a.test/1', 'https://a.test/2']);
	});

	it("gives each origin its --host-rate gap before its URLs fall due: the origin's second URL waits", async () => {
		const { claimed } = await admitted(3_600_000);
		expect(claimed).toEqual(['https://a.test/1']);
	});
});
