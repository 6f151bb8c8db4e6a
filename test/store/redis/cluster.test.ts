import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis/store.js';
import { hashTag } from '../../../src/store/redis/cluster.js';
import { connectRedis } from '../../../src/store/redis/link.js';
import { bucketKeys } from '../../../src/store/redis/layout.js';
import { parseRedisUrl } from '../../../src/store/redis/url.js';
import { RECORD_VERSION } from '../../../src/store/model/types.js';
import { ndjson, runCli } from '../../helpers/cli.js';
import { startRedisCluster, type TestCluster } from '../../helpers/redis-cluster.js';
import { describeRedis } from '../../helpers/redis.js';
import { startServer } from '../../helpers/server.js';
import { storeContract } from '../contract.js';
import { SUPPORTS } from '../supports.js';

let unique = 0;
const prefix = () => `c${process.pid}.${++unique}:`;

describeRedis('RedisStore on a Redis Cluster (redis+cluster://)', () => {
	let cluster: TestCluster;
	beforeAll(async () => {
		cluster = await startRedisCluster(3);
	}, 60_000);
	afterAll(async () => {
		await cluster?.stop();
	});

	storeContract('RedisStore on a Cluster', SUPPORTS.RedisStore, async () => ({ store: await RedisStore.open(cluster.url(prefix())), cleanup: async () => {} }));

	it('spreads the buckets over every node, and lists records in key order across them', async () => {
		const p = prefix();
		const store = await RedisStore.open(cluster.url(p));
		const keys = Array.from({ length: 1_500 }, (_, i) => `https://h${i % 5}.example/${(i * 7919) % 1_500}`);
		await store.batch(keys.map((key) => ({ type: 'put' as const, key, value: { v: RECORD_VERSION, status: 200, lastChecked: 1 } })));
		const listed: string[] = [];
		for await (const [key] of store.entries()) listed.push(key);
		expect(listed).toEqual([...keys].sort());
		await store.close();
		// Each node holds some of the 16 URL buckets: the store is not on one node.
		const held = await Promise.all(
			cluster.nodes.map(async (node) => {
				const link = await connectRedis(parseRedisUrl(node.url('raw:')));
				try {
					const counts = await Promise.all(
						Array.from({ length: 16 }, (_, bucket) => link.read<number>(['CLUSTER', 'COUNTKEYSINSLOT', String(slotOf(bucketKeys(p, 'url', bucket).rec))])),
					);
					return counts.filter((count) => count > 0).length;
				} finally {
					await link.close();
				}
			}),
		);
		expect(held.every((buckets) => buckets > 0)).toBe(true);
		expect(held.reduce((a, b) => a + b, 0)).toBe(16);
	});

	it('runs the CLI: sweep twice (the second reports nothing) and export', async () => {
		const site = await startServer((_req, res) => res.writeHead(200, { etag: '"1"' }).end('page'));
		try {
			const url = cluster.url(prefix());
			const urls = Array.from({ length: 20 }, (_, i) => site.url(`/p${i}`)).join('\n');
			expect((await runCli(['sweep', '--store', url, '-q', '--audit', '0'], urls)).stdout.split('\n').filter(Boolean)).toHaveLength(20);
			expect(await runCli(['sweep', '--store', url, '-q', '--audit', '0'], urls)).toMatchObject({ status: 0, stdout: '' });
			const kinds = ndjson((await runCli(['export', '--store', url])).stdout).map((line) => line.kind);
			expect(kinds.slice(0, 24)).toEqual(['meta', ...Array(20).fill('url'), 'host', 'run', 'run']);
			// The first run's detail (20 new URLs), then the kept texts (one: the pages are alike), then each page's version log.
			expect(kinds[24]).toBe('detail');
			expect(kinds.slice(25)).toEqual(['text', ...Array(20).fill('versions')]);
		} finally {
			await site.close();
		}
	});

	it('fails an unreachable cluster within its open timeout, naming the seeds', async () => {
		const started = Date.now();
		await expect(RedisStore.open('redis+cluster://127.0.0.1:1?node=127.0.0.1:2', { openTimeoutMs: 600 })).rejects.toMatchObject({
			code: 'STORE_OPEN_FAILED',
			message: expect.stringContaining('127.0.0.1:1, 127.0.0.1:2'),
		});
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	it('names its hash tags as Redis Cluster does', () => {
		expect(hashTag('revisit:{url.07}:rec')).toBe('url.07');
		expect(hashTag('revisit:meta')).toBe('revisit:meta');
		expect(hashTag('a{}b{c}')).toBe('a{}b{c}');
	});
});

describeRedis('RedisStore on a Redis Cluster that loses a node', () => {
	it('fails writes to its buckets with STORE_WRITE_FAILED once the reconnect window has passed', async () => {
		const cluster = await startRedisCluster(3);
		try {
			const store = await RedisStore.open(cluster.url('lost:'), { reconnectWindowMs: 1_000 });
			const put = (key: string) => ({ type: 'put' as const, key, value: { v: RECORD_VERSION, status: 200, lastChecked: 1 } });
			const keys = Array.from({ length: 64 }, (_, i) => `https://a.example/${i}`);
			await store.batch(keys.map(put));
			await cluster.nodes[2]!.kill();
			const started = Date.now();
			await expect(store.batch(keys.map(put))).rejects.toMatchObject({ code: 'STORE_WRITE_FAILED', message: expect.stringContaining('Redis Cluster') });
			expect(Date.now() - started).toBeLessThan(15_000);
			await store.close();
		} finally {
			await cluster.stop();
		}
	}, 60_000);
});

/** CRC16/XMODEM of the key's hash tag, modulo 16384: the Cluster slot. */
function slotOf(key: string): number {
	let crc = 0;
	for (const byte of Buffer.from(hashTag(key))) {
		crc ^= byte << 8;
		for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc % 16_384;
}
