import { firstValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import type { DueEntry, DueQueue } from '../../src/store/model/due.js';
import { RECORD_VERSION } from '../../src/store/model/types.js';
import { createReschedules } from '../../src/watch/reschedules.js';
import { tempDir } from '../helpers/cli.js';

const T = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3_600_000;
const claimOptions = { max: 10, perHost: 10, leaseMs: HOUR, rate: 1, burst: 10 };

/** Two URLs of one origin, due and claimed. */
async function claimedIn(queue: DueQueue) {
	await queue.put(['https://a.test/1', 'https://a.test/2'].map((url) => ({ url, origin: 'https://a.test', due: T - 1, rate: 0.1 })));
	const claim = await queue.claim(claimOptions);
	expect(claim.entries).toHaveLength(2);
	return claim.entries.map((entry) => ({
		claim: { url: entry.url, token: entry.token },
		next: { url: entry.url, origin: entry.origin, due: T + HOUR, rate: 0.2 } as DueEntry,
	}));
}

describe('createReschedules', () => {
	it("ends each check's claim with its next due time once the batch its record went in is written, batch by batch", async () => {
		const queue = await new MemoryStore().dueQueue({ at0: T, wall0: Date.now(), scale: 1 });
		const reschedules = createReschedules(queue);
		const [a, b] = await claimedIn(queue);
		const freed = firstValueFrom(reschedules.freed.pipe(take(2), toArray()));
		expect(reschedules.commit.write).toBeUndefined();
		reschedules.checked(a!.claim, a!.next);
		expect(a!.next.token).toBe(a!.claim.token);
		reschedules.commit.flushing();
		// b's check is over after the first batch was taken: it goes with the next.
		reschedules.checked(b!.claim, b!.next);
		reschedules.commit.written();
		await reschedules.flush();
		expect(await queue.stats()).toMatchObject({ size: 2, claimed: 1, backlog: 0, next: T + HOUR });
		reschedules.commit.flushing();
		reschedules.commit.written();
		await reschedules.flush();
		expect(await queue.stats()).toMatchObject({ size: 2, claimed: 0, backlog: 0, next: T + HOUR });
		await freed;
	});

	it("where the schedule is in the store's database, ends the claims in the records' own write", async () => {
		const { dir, cleanup } = await tempDir();
		const store = await LevelStore.open(dir);
		try {
			const queue = await store.dueQueue({ at0: T, wall0: Date.now(), scale: 1 });
			const reschedules = createReschedules(queue);
			const [a, b] = await claimedIn(queue);
			const freed = firstValueFrom(reschedules.freed);
			reschedules.checked(a!.claim, a!.next);
			reschedules.checked(b!.claim, b!.next);
			reschedules.commit.flushing();
			const record = { v: RECORD_VERSION, status: 200, lastChecked: T };
			await reschedules.commit.write!([{ type: 'put', key: 'https://a.test/1', value: record }]);
			expect(await queue.stats()).toMatchObject({ claimed: 0, next: T + HOUR });
			expect(await store.getMany(['https://a.test/1'])).toMatchObject([record]);
			reschedules.commit.written();
			await freed;
			await reschedules.flush();
		} finally {
			await store.close();
			await cleanup();
		}
	});

	it('reschedules a URL checked without a token, and lets a check with nothing to reschedule pass', async () => {
		const queue = await new MemoryStore().dueQueue({ at0: T, wall0: Date.now(), scale: 1 });
		const reschedules = createReschedules(queue);
		const [a] = await claimedIn(queue);
		reschedules.checked(undefined, a!.next);
		reschedules.checked(undefined, undefined);
		reschedules.commit.flushing();
		reschedules.commit.written();
		await reschedules.flush();
		expect(await queue.stats()).toMatchObject({ claimed: 1 });
		expect(a!.next.token).toBeUndefined();
	});
});
