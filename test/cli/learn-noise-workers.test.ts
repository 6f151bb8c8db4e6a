import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startWorkers } from '../helpers/fleet.js';
import { startProductSite } from '../helpers/product-site.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';

const lines = (stdout: string) => stdout.split('\n').filter(Boolean).sort();

/** The four runs of the product shop under `args`: all new, none, exactly 3 edited prices, none. */
async function fourRuns(shop: Awaited<ReturnType<typeof startProductSite>>, store: string, args: string[], edited: number[]): Promise<void> {
	const sweep = async () => {
		const run = await runCli(['sweep', '--store', store, '--learn-noise', ...args], shop.urls.join('\n'));
		expect(run.status, run.stderr).toBe(0);
		return lines(run.stdout);
	};
	expect(await sweep()).toHaveLength(shop.urls.length);
	expect(await sweep()).toEqual([]);
	for (const n of edited) shop.price.set(n, 500 + n);
	expect(await sweep()).toEqual(edited.map((n) => shop.url(`/product/${n}`)).sort());
	expect(await sweep()).toEqual([]);
}

describe('learned noise with local worker threads', () => {
	let shop: Awaited<ReturnType<typeof startProductSite>>;
	beforeAll(async () => {
		shop = await startProductSite(60);
	});
	afterAll(() => shop.close());

	it('--local-workers 2 (threads) applies the same learned noise as one process', async () => {
		const dir = await tempDir('revisit-noise-threads-');
		try {
			await fourRuns(shop, path.join(dir.dir, 'store'), ['--local-workers', '2'], [5, 17, 40]);
		} finally {
			await dir.cleanup();
		}
	}, 120_000);
});

describeRedis('learned noise with a Redis fleet', () => {
	let redis: TestRedis;
	let shop: Awaited<ReturnType<typeof startProductSite>>;
	beforeAll(async () => {
		redis = await startRedis();
		shop = await startProductSite(60);
	});
	afterAll(async () => {
		await shop?.close();
		await redis?.stop();
	});

	it('sweep --workers on a Redis store: the noise is learned and kept in Redis, and applied the same', async () => {
		const url = redis.url(`noise${process.pid}:`);
		const workers = await startWorkers(url, 2, ['--concurrency', '4']);
		try {
			await fourRuns(shop, url, ['--workers'], [8, 21, 33]);
			const stats = await runCli(['stats', '--store', url]);
			expect(stats.stdout).toMatch(/\/product\/\* {2}html:html>body>main\.product>aside\.ad {2}applies to every page/);
		} finally {
			await Promise.all(workers.map((worker) => worker.stop()));
		}
	}, 120_000);
});
