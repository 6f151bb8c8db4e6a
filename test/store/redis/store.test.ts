import net from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../../../src/api/sweep.js';
import { exitStatusFor } from '../../../src/base/errors/index.js';
import { RECORD_VERSION, type UrlRecord } from '../../../src/store/model/types.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { describeStore, openStore } from '../../../src/store/open.js';
import { bucketKeys, bucketOf } from '../../../src/store/redis/layout.js';
import { connectRedis } from '../../../src/store/redis/link.js';
import { parseRedisUrl } from '../../../src/store/redis/url.js';
import { describeRedis, startRedis, type TestRedis } from '../../helpers/redis.js';
import { startServer } from '../../helpers/server.js';
import { storeContract } from '../contract.js';
import { SUPPORTS } from '../supports.js';

const record = (lastChecked: number): UrlRecord => ({ v: RECORD_VERSION, status: 200, etag: '"x"', lastChecked });
let unique = 0;
const prefix = () => `t${process.pid}.${++unique}:`;

describeRedis('RedisStore', () => {
	let redis: TestRedis;
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(async () => {
		await redis?.stop();
	});

	// Each test its own prefix on the one server: nothing to clean between them.
	storeContract('RedisStore', SUPPORTS.RedisStore, async () => ({ store: await RedisStore.open(redis.url(prefix())), cleanup: async () => {} }));

	/** Raw commands on the test server, for setting up and inspecting layouts. */
	const raw = async <T>(command: string[]): Promise<T> => {
		const link = await connectRedis(parseRedisUrl(redis.url('raw:')));
		try {
			return await link.read<T>(command);
		} finally {
			await link.close();
		}
	};

	it('is what openStore returns for a redis:// URL, and keeps its keys under the prefix', async () => {
		const p = prefix();
		const store = await openStore(redis.url(p));
		expect(store).toBeInstanceOf(RedisStore);
		await store.batch([{ type: 'put', key: 'https://a.example/', value: record(1) }]);
		await store.close();
		const { rec, idx } = bucketKeys(p, 'url', bucketOf('https://a.example/', 16));
		expect(JSON.parse(await raw<string>(['HGET', rec, 'https://a.example/']))).toEqual(record(1));
		expect(await raw<string[]>(['ZRANGE', idx, '0', '-1'])).toEqual(['https://a.example/']);
		expect(await raw<string[]>(['HMGET', `${p}meta`, 'format', 'layout', 'buckets'])).toEqual([String(RECORD_VERSION), '1', '16']);
	});

	it('lists many records across pages and buckets in byte order, as LevelDB does', async () => {
		const store = await RedisStore.open(redis.url(prefix()));
		const keys = Array.from({ length: 2_000 }, (_, i) => `https://h${i % 7}.example/p/${(i * 7919) % 2_000}`);
		keys.push('https://z.example/caf\u00e9', 'https://z.example/cafe', 'https://z.example/caf\u{1f600}', 'https://z.example/caf\uffff');
		for (let i = 0; i < keys.length; i += 500) await store.batch(keys.slice(i, i + 500).map((key) => ({ type: 'put' as const, key, value: record(1) })));
		await store.batch([{ type: 'del', key: keys[10]! }]);
		const listed: string[] = [];
		for await (const [key] of store.entries()) listed.push(key);
		const expected = [...new Set(keys)].filter((key) => key !== keys[10]).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
		expect(listed).toEqual(expected);
		await store.close();
	});

	it('refuses a newer format, a foreign meta key, and orphaned buckets, leaving them alone', async () => {
		const newer = prefix();
		await raw(['HSET', `${newer}meta`, 'format', '99', 'layout', '1', 'buckets', '16']);
		await expect(RedisStore.open(redis.url(newer))).rejects.toMatchObject({ code: 'STORE_FORMAT', message: expect.stringContaining('upgrade revisit') });
		expect(await raw<string[]>(['HMGET', `${newer}meta`, 'format'])).toEqual(['99']);

		const layout = prefix();
		await raw(['HSET', `${layout}meta`, 'format', '1', 'layout', '2', 'buckets', '16']);
		await expect(RedisStore.open(redis.url(layout))).rejects.toMatchObject({ code: 'STORE_FORMAT' });

		const foreign = prefix();
		await raw(['SET', `${foreign}meta`, 'hello']);
		await expect(RedisStore.open(redis.url(foreign))).rejects.toMatchObject({ code: 'STORE_FORMAT' });
		expect(await raw<string>(['GET', `${foreign}meta`])).toBe('hello');

		const orphan = prefix();
		await raw(['ZADD', bucketKeys(orphan, 'url', 3).idx, '0', 'x']);
		await expect(RedisStore.open(redis.url(orphan))).rejects.toMatchObject({ code: 'STORE_FORMAT' });
	});

	it('says STORE_MISSING when a read-only command finds no store under the prefix', async () => {
		await expect(openStore(redis.url(prefix()), { create: false })).rejects.toMatchObject({ code: 'STORE_MISSING' });
	});

	it('fails an unreachable server within its open timeout, naming host and port but never the password', async () => {
		const port = await closedPort();
		const started = Date.now();
		const error = await openStore(`redis://app:hunter2@127.0.0.1:${port}/0`, { redis: { openTimeoutMs: 600 } }).catch((caught: unknown) => caught);
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(error).toMatchObject({ code: 'STORE_OPEN_FAILED', message: expect.stringContaining(`127.0.0.1:${port}`) });
		expect(String((error as Error).message)).not.toContain('hunter2');
	});

	it('refuses a bad URL without repeating its password', async () => {
		const error = await openStore('redis://app:hunter2@127.0.0.1:6379/x').catch((caught: unknown) => caught);
		expect(error).toMatchObject({ code: 'STORE_OPEN_FAILED', message: expect.stringContaining('database number') });
		expect((error as Error).message).not.toContain('hunter2');
		await expect(openStore('redis://127.0.0.1:6379/0?prefix=a{b}')).rejects.toMatchObject({ code: 'STORE_OPEN_FAILED' });
		await expect(openStore('redis://127.0.0.1:6379/0?timeout=1')).rejects.toMatchObject({
			code: 'STORE_OPEN_FAILED',
			message: expect.stringContaining('"timeout"'),
		});
	});
});

describeRedis('RedisStore when the connection is lost', () => {
	it('reconnects with backoff when the server comes back, then fails writes with STORE_WRITE_FAILED once it stays away', async () => {
		const redis = await startRedis();
		try {
			const store = await RedisStore.open(redis.url('loss:'), { reconnectWindowMs: 1_500 });
			await store.batch([{ type: 'put', key: 'a', value: record(1) }]);
			await redis.kill();
			const restarted = (async () => {
				await new Promise((resolve) => setTimeout(resolve, 300));
				await redis.restart();
			})();
			// The server restarts empty (no persistence): the write lands after the reconnect.
			await store.batch([{ type: 'put', key: 'b', value: record(2) }]);
			await restarted;
			expect(await store.getMany(['a', 'b'])).toEqual([undefined, record(2)]);

			await redis.kill();
			const started = Date.now();
			await expect(store.batch([{ type: 'put', key: 'c', value: record(3) }])).rejects.toMatchObject({
				code: 'STORE_WRITE_FAILED',
				message: expect.stringContaining(`127.0.0.1:${redis.port}`),
			});
			expect(Date.now() - started).toBeLessThan(10_000);
			await expect(store.getMany(['a'])).rejects.toMatchObject({ code: 'STORE_READ_FAILED' });
			await store.close();
		} finally {
			await redis.stop();
		}
	});
});

describeRedis('a sweep on a Redis store that goes away', () => {
	it('ends with STORE_WRITE_FAILED (exit 2) when Redis dies mid-run and stays away past the reconnect window', async () => {
		const redis = await startRedis();
		const site = await startServer((_req, res) => {
			// The server dies while the probe is answered: the commit after it has no Redis.
			void redis.kill().then(() => res.writeHead(200, { etag: '"1"' }).end('page'));
		});
		try {
			const store = await RedisStore.open(redis.url('gone:'), { reconnectWindowMs: 500 });
			const error = await lastValueFrom(sweep([site.url('/a')], { store, trust: { auditRate: 0 } }).pipe(toArray())).catch((caught: unknown) => caught);
			expect(error).toMatchObject({ code: 'STORE_WRITE_FAILED' });
			expect(exitStatusFor(error)).toBe(2);
			await store.close();
		} finally {
			await site.close();
			await redis.stop();
		}
	});
});

describe('Redis store URLs', () => {
	it('parse user, password, TLS, database and prefix', () => {
		expect(parseRedisUrl('rediss://app:s%40cret@cache.internal:6380/2?prefix=crawl:')).toEqual({
			host: 'cache.internal',
			port: 6380,
			tls: true,
			username: 'app',
			password: 's@cret',
			db: 2,
			prefix: 'crawl:',
		});
		expect(parseRedisUrl('redis://[::1]')).toEqual({ host: '::1', port: 6379, tls: false, db: 0, prefix: 'revisit:' });
	});

	it('parse a cluster with its seeds, and refuse what a cluster has not', () => {
		expect(parseRedisUrl('rediss+cluster://app:pw@10.0.0.1:7000?prefix=p:&node=10.0.0.2:7001&node=[::1]')).toEqual({
			host: '10.0.0.1',
			port: 7000,
			tls: true,
			cluster: true,
			seeds: [
				{ host: '10.0.0.2', port: 7001 },
				{ host: '::1', port: 6379 },
			],
			username: 'app',
			password: 'pw',
			db: 0,
			prefix: 'p:',
		});
		expect(() => parseRedisUrl('redis+cluster://app:pw@10.0.0.1:7000/3')).toThrow(/only database 0/);
		expect(() => parseRedisUrl('redis://10.0.0.1:7000?node=10.0.0.2:7001')).toThrow(/unknown parameter "node"/);
		expect(() => parseRedisUrl('redis+cluster://app:pw@10.0.0.1:7000?node=a/b')).toThrow(/node=a\/b is not host:port/);
		expect(describeStore('redis+cluster://app:pw@10.0.0.1:7000')).toBe('redis+cluster://app:***@10.0.0.1:7000');
	});
});

async function closedPort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
