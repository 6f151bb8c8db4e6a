import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/level/memory.js';
import { INNER_WHITESPACE } from '../../src/stages/normalise.js';
import { admit } from '../../src/watch/admit.js';
import type { InputBatch } from '../../src/watch/inputs.js';

const DAY = 86_400_000;
const lines = (...texts: string[]) => texts.map((text, i) => ({ line: i + 1, text, source: 'urls.txt' }));
const claimAll = { max: 100, perHost: 100, leaseMs: DAY, rate: 1e6, burst: 100 };

describe('admit', () => {
	it('puts new URLs due now in normal form, leaves scheduled ones where they are, and names the lines that are not URLs', async () => {
		const start = 1_000_000_000;
		const queue = await new MemoryStore().dueQueue({ at0: start, wall0: Date.now(), scale: 1 });
		await queue.put([{ url: 'https://example.org/known', origin: 'https://example.org', due: start + 30 * DAY, rate: 0.01 }]);
		const batch: InputBatch = {
			source: 'urls.txt',
			generation: 1,
			complete: true,
			last: true,
			lines: [
				...lines('HTTP://Example.ORG:80/a#top', 'http://example.org/a', 'https://example.org/known', 'mailto:someone@example.org', 'https://example.org/b c'),
				{ line: 6, text: 'x\\0y', source: 'urls.txt', problem: 'line contains a NUL byte' },
			],
		};
		const admitted = await admit(queue, batch, { now: start });
		expect(admitted).toEqual({
			added: 1,
			removed: [],
			listed: 2,
			problems: [
				{ source: 'urls.txt', line: 4, text: 'mailto:someone@example.org', problem: 'scheme mailto: is not http or https' },
				{ source: 'urls.txt', line: 5, text: 'https://example.org/b c', problem: INNER_WHITESPACE },
				{ source: 'urls.txt', line: 6, text: 'x\\0y', problem: 'line contains a NUL byte' },
			],
		});
		// Due now with the prior's rate (as the queue's rate bins keep it); the known URL is not due for a month yet.
		const { entries } = await queue.claim(claimAll);
		// (The claim's token, its own business, aside.)
		expect(entries.map(({ token: _token, notBefore: _notBefore, ...entry }) => entry)).toEqual([
			{ url: 'http://example.org/a', origin: 'http://example.org', due: start, rate: expect.closeTo(0.25, 1) },
		]);
		expect(entries[0]!.notBefore).toBeUndefined();
		expect(await queue.has(['https://example.org/known'])).toEqual([true]);
	});

	it('takes out what a complete reading no longer lists, and nothing on a reading that is not complete', async () => {
		const queue = await new MemoryStore().dueQueue({ at0: 0, wall0: Date.now(), scale: 1 });
		const reading = (generation: number, complete: boolean, ...urls: string[]): InputBatch => ({
			source: 'urls.txt',
			generation,
			complete,
			last: complete,
			lines: lines(...urls),
		});
		expect(await admit(queue, reading(1, true, 'https://example.org/a', 'https://example.org/b'), { now: 0 })).toMatchObject({ added: 2, removed: [] });
		// A reading cut short (a sitemap that answered 500) lists less, and takes nothing out.
		expect(await admit(queue, reading(2, false, 'https://example.org/a'), { now: 0 })).toMatchObject({ added: 0, removed: [] });
		expect(await queue.has(['https://example.org/a', 'https://example.org/b'])).toEqual([true, true]);
		// A reading in two batches: only the last, complete one sweeps, and keeps what the first listed.
		expect(await admit(queue, reading(3, false, 'https://example.org/a'), { now: 0 })).toMatchObject({ removed: [] });
		expect(await admit(queue, reading(3, true, 'https://example.org/c'), { now: 0 })).toMatchObject({ added: 1, removed: ['https://example.org/b'] });
		expect(await queue.has(['https://example.org/a', 'https://example.org/b', 'https://example.org/c'])).toEqual([true, false, true]);
		// Another input's URLs are its own: sweeping this one leaves them.
		await admit(queue, { source: 'other.txt', generation: 4, complete: true, last: true, lines: lines('https://example.org/d') }, { now: 0 });
		expect(await admit(queue, reading(5, true), { now: 0 })).toMatchObject({ removed: ['https://example.org/a', 'https://example.org/c'] });
		expect(await queue.has(['https://example.org/d'])).toEqual([true]);
	});
});
