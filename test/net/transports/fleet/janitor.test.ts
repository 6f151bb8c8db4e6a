import { afterAll, beforeAll, expect, it } from 'vitest';
import { clearStale } from '../../../../src/net/transports/fleet/janitor.js';
import { fleetKeys } from '../../../../src/net/transports/fleet/keys.js';
import { openFleetLink, type FleetLink } from '../../../../src/net/transports/fleet/link.js';
import { runWorker } from '../../../../src/net/transports/fleet/worker.js';
import { parseRedisUrl } from '../../../../src/store/redis/url.js';
import { describeRedis, startRedis, type TestRedis } from '../../../helpers/redis.js';

describeRedis('the queue janitor', () => {
	let redis: TestRedis;
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(() => redis.stop());

	/**
	 * Two entries read by a worker that then died, so pending for ever: one of a run whose
	 * coordinator died too (no lease hash left), one of a run still alive (its lease holds the token).
	 */
	async function orphans(prefix: string): Promise<{ link: FleetLink; keys: ReturnType<typeof fleetKeys>; len(): Promise<number>; pending(): Promise<number> }> {
		const target = parseRedisUrl(redis.url(prefix));
		const keys = fleetKeys(target);
		const link = await openFleetLink(target);
		await link.call(keys.queue, ['XGROUP', 'CREATE', keys.queue, 'workers', '0', 'MKSTREAM']);
		await link.call(keys.lease('alive'), ['HSET', keys.lease('alive'), '~lease', '25000', '1', 't1']);
		await link.call(keys.queue, ['XADD', keys.queue, '*', 'run', 'gone', 'id', '0', 'token', 't0', 'spec', '{}']);
		await link.call(keys.queue, ['XADD', keys.queue, '*', 'run', 'alive', 'id', '1', 'token', 't1', 'spec', '{}']);
		await link.call(keys.queue, ['XREADGROUP', 'GROUP', 'workers', 'dead-worker', 'COUNT', '10', 'STREAMS', keys.queue, '>']);
		return {
			link,
			keys,
			len: async () => Number(await link.call(keys.queue, ['XLEN', keys.queue])),
			pending: async () => Number(((await link.call(keys.queue, ['XPENDING', keys.queue, 'workers'])) as unknown[])[0]),
		};
	}

	it("deletes the pending entries of a run that is gone, and leaves a live run's alone", async () => {
		const { link, keys, len, pending } = await orphans('j1:');
		try {
			expect([await len(), await pending()]).toEqual([2, 2]);
			// Not idle long enough yet: nothing is touched.
			expect(await clearStale(link, keys, 'janitor', 60_000)).toBe(0);
			expect(await clearStale(link, keys, 'janitor', 0)).toBe(1);
			expect([await len(), await pending()]).toEqual([1, 1]);
			const [entry] = (await link.call(keys.queue, ['XRANGE', keys.queue, '-', '+'])) as Array<[string, string[]]>;
			expect(entry![1]).toContain('alive');
		} finally {
			await link.close();
		}
	});

	it('runs in every worker: the orphan is gone soon after a worker starts', async () => {
		const { link, len } = await orphans('j2:');
		const stop = new AbortController();
		const lines: string[] = [];
		const worker = runWorker(parseRedisUrl(redis.url('j2:')), { concurrency: 4, staleMs: 50, log: (line) => lines.push(line) }, stop.signal);
		try {
			for (let waited = 0; (await len()) > 1 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
			expect(await len()).toBe(1);
			expect(lines.join('\n')).toContain('deleted 1 queue entries');
		} finally {
			stop.abort();
			await worker;
			await link.close();
		}
	});
});
