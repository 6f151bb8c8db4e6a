import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DueEntry } from '../../../../src/store/model/due.js';
import { RedisStore } from '../../../../src/store/redis/store.js';
import { startRedisCluster, type TestCluster } from '../../../helpers/redis-cluster.js';
import { describeRedis, startRedis, type TestRedis } from '../../../helpers/redis.js';
import { dueQueueContract, stillAt } from '../../due-contract.js';

let unique = 0;
const prefix = () => `d${process.pid}.${++unique}:`;

/** A fresh prefix on `url`'s server; reopening is closing the store and opening the same prefix again. */
const opener = (url: (prefix: string) => string) => async () => {
	const where = url(prefix());
	let store = await RedisStore.open(where);
	return {
		store,
		reopen: async () => {
			await store.close();
			store = await RedisStore.open(where);
			return store;
		},
		cleanup: async () => {},
	};
};

describeRedis('the watch schedule on Redis', () => {
	let redis: TestRedis;
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(async () => {
		await redis?.stop();
	});

	dueQueueContract(
		'RedisStore',
		opener((p) => redis.url(p)),
		{ reopenReturnsClaims: false, tokens: true, answered: true },
	);

	describe('shared by two processes', () => {
		it('never gives one URL to both, and holds perHost over both', async () => {
			const p = prefix();
			const [one, two] = await Promise.all([RedisStore.open(redis.url(p)), RedisStore.open(redis.url(p))]);
			try {
				const clock = { at0: 1000, wall0: Date.now(), scale: 0 };
				const [a, b] = await Promise.all([one.dueQueue(clock), two.dueQueue(clock)]);
				const origins = Array.from({ length: 10 }, (_, i) => `http://h${i}.test`);
				const entries: DueEntry[] = origins.flatMap((origin) => Array.from({ length: 20 }, (_, j) => ({ url: `${origin}/${j}`, origin, due: j, rate: 1 })));
				await a.put(entries);
				const options = { max: 7, perHost: 3, leaseMs: 60_000, rate: 1e6, burst: 1e6 };
				const claimed: DueEntry[] = [];
				// Claims from both at once, until neither gets more: each origin is then at its limit.
				for (;;) {
					const got = (await Promise.all([a.claim(options), b.claim(options), a.claim(options), b.claim(options)])).flatMap((claim) => claim.entries);
					if (got.length === 0) break;
					claimed.push(...got);
				}
				expect(new Set(claimed.map((entry) => entry.url)).size).toBe(claimed.length);
				const perOrigin = new Map<string, number>();
				for (const entry of claimed) perOrigin.set(entry.origin, (perOrigin.get(entry.origin) ?? 0) + 1);
				expect([...perOrigin.values()]).toEqual(Array(10).fill(3));
				expect(await b.stats()).toMatchObject({ size: 200, claimed: 30 });
				// One done frees one claim of its origin, for whichever process asks next.
				await a.done([{ ...claimed[0]!, due: 1e9 }]);
				expect((await b.claim(options)).entries.map((entry) => entry.origin)).toEqual([claimed[0]!.origin]);
			} finally {
				await Promise.all([one.close(), two.close()]);
			}
		});
	});
});

describeRedis('the watch schedule on a Redis that goes away', () => {
	it('runs its scripts again after the script cache is flushed, and fails with STORE_* codes once Redis stays away', async () => {
		const redis = await startRedis();
		try {
			const store = await RedisStore.open(redis.url('gone:'), { reconnectWindowMs: 500 });
			const queue = await store.dueQueue({ at0: 1000, wall0: Date.now(), scale: 0 });
			await queue.put([{ url: 'u1', origin: 'http://a.test', due: 1, rate: 1 }]);
			await redis.cli(['SCRIPT', 'FLUSH']);
			expect((await queue.claim({ max: 10, perHost: 10, leaseMs: 1_000, rate: 1, burst: 10 })).entries.map((entry) => entry.url)).toEqual(['u1']);
			await redis.kill();
			await expect(queue.claim({ max: 10, perHost: 10, leaseMs: 1_000, rate: 1, burst: 10 })).rejects.toMatchObject({
				code: 'STORE_WRITE_FAILED',
				message: expect.stringContaining(`127.0.0.1:${redis.port}`),
			});
			await expect(queue.stats()).rejects.toMatchObject({ code: 'STORE_READ_FAILED' });
			await store.close();
		} finally {
			await redis.stop();
		}
	});
});

describeRedis('the watch schedule on a Redis Cluster', () => {
	let cluster: TestCluster;
	beforeAll(async () => {
		cluster = await startRedisCluster(3);
	}, 60_000);
	afterAll(async () => {
		await cluster?.stop();
	});

	// The schedule is cut into shards by origin, each script on one shard's hash tag.
	dueQueueContract(
		'RedisStore on a Cluster',
		opener((p) => cluster.url(p)),
		{ reopenReturnsClaims: false, pacedPerShard: true, tokens: true, answered: true },
	);

	it("spreads the schedule over the nodes: each holds some origins' queues and answers some of the claims, none more than half", async () => {
		const p = prefix();
		const store = await RedisStore.open(cluster.url(p));
		try {
			const queue = await store.dueQueue(stillAt(1000));
			const origins = Array.from({ length: 30 }, (_, i) => `http://o${i}.test`);
			await queue.put(origins.flatMap((origin) => Array.from({ length: 10 }, (_, j) => ({ url: `${origin}/${j}`, origin, due: j, rate: 1 }))));
			const scripts = () =>
				Promise.all(
					cluster.nodes.map(async (node) =>
						[...(await node.cli(['INFO', 'commandstats'])).matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0),
					),
				);
			const before = await scripts();
			const claimed: string[] = [];
			for (let got = 1; got > 0; ) {
				const { entries } = await queue.claim({ max: 64, perHost: 100, leaseMs: 60_000, rate: 1e6, burst: 1e6 });
				claimed.push(...entries.map((entry) => entry.url));
				got = entries.length;
			}
			const after = await scripts();
			expect(new Set(claimed).size).toBe(300);
			// Each node holds the queues of some origins (keys P{due.II.K}:at:ORIGIN, the URLs left unclaimed put back first).
			await queue.release(claimed.map((url) => ({ url })));
			const queues = await Promise.all(
				cluster.nodes.map(async (node) => (await node.cli(['--scan', '--pattern', `${p}{due.*:at:*`])).split('\n').filter(Boolean).length),
			);
			expect(queues.every((count) => count > 0)).toBe(true);
			expect(queues.reduce((a, b) => a + b, 0)).toBe(30);
			// The claim rounds went to every node, and none took more than half of them.
			const rounds = after.map((calls, i) => calls - before[i]!);
			const total = rounds.reduce((a, b) => a + b, 0);
			expect(rounds.every((count) => count > 0 && count <= total / 2)).toBe(true);
		} finally {
			await store.close();
		}
	});
});
