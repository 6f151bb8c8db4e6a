import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startProductSite } from '../helpers/product-site.js';

const lines = (stdout: string) => stdout.split('\n').filter(Boolean).sort();

describe('--learn-noise on 100 product pages with rotating ads, nonces, random attributes and timestamps', () => {
	let shop: Awaited<ReturnType<typeof startProductSite>>;
	beforeAll(async () => {
		shop = await startProductSite(100);
	});
	afterAll(() => shop.close());

	it('run 1 all new, run 2 none, run 3 exactly the 3 edited prices, run 4 none; no rules', async () => {
		const dir = await tempDir('revisit-products-');
		try {
			const store = path.join(dir.dir, 'store');
			const sweep = async () => {
				const run = await runCli(['sweep', '--store', store, '--learn-noise'], shop.urls.join('\n'));
				expect(run.status, run.stderr).toBe(0);
				return lines(run.stdout);
			};
			expect(await sweep()).toHaveLength(100);
			expect(await sweep()).toEqual([]);
			for (const n of [4, 50, 99]) shop.price.set(n, 77);
			expect(await sweep()).toEqual([4, 50, 99].map((n) => shop.url(`/product/${n}`)).sort());
			expect(await sweep()).toEqual([]);
			// A stock line edited, and a price with it, are reported too.
			shop.stock.set(3, 0);
			shop.price.set(7, 1);
			expect(await sweep()).toEqual([shop.url('/product/3'), shop.url('/product/7')]);
			// The host learned the ad box and the rest on several pages: stats lists the places.
			const [stats] = ndjson((await runCli(['stats', '--store', store, '--json'])).stdout);
			const places = (stats!['learned'] as Array<{ at: string; template: string }>).map((entry) => entry.at);
			expect(places).toContain('html:html>body>main.product>aside.ad');
			expect(places).toContain('html:html>body>main.product>p.generated');
			expect(places.some((at) => at.includes('p.price') || at.includes('p.stock'))).toBe(false);
		} finally {
			await dir.cleanup();
		}
	}, 120_000);
});
