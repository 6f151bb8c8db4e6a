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

describe('learned noise shows itself and can be forgotten', () => {
	let shop: Awaited<ReturnType<typeof startProductSite>>;
	beforeAll(async () => {
		shop = await startProductSite(6);
	});
	afterAll(() => shop.close());

	it('a live ticker may learn its price as noise: rules test says so; with --select the price is never learned', async () => {
		const dir = await tempDir('revisit-ticker-');
		try {
			const store = path.join(dir.dir, 'store');
			const ticker = shop.url('/ticker/1');
			await runCli(['sweep', '--store', store, '--learn-noise', '-q', ticker]);
			const shown = await runCli(['rules', 'test', ticker, '--store', store]);
			expect(shown.status).toBe(0);
			expect(shown.stderr).toMatch(/learned noise, left out of this page's hash/);
			expect(shown.stderr).toMatch(/html:html>body>main\.product>p\.price {2}\(learned on this page, \d{4}-\d\d-\d\dT/);
			// Selected by the user: the price is what counts, never noise; every run reports the ticker.
			const selected = path.join(dir.dir, 'selected');
			for (let run = 1; run <= 3; run++) {
				const swept = await runCli(['sweep', '--store', selected, '--learn-noise', '--churn-min', '1000', ticker, '--select', '.price']);
				expect(swept.stdout.trim()).toBe(ticker);
			}
			expect((await runCli(['rules', 'test', ticker, '--store', selected, '--select', '.price'])).stderr).toContain('no noise learned for this page');
			// Forgotten: the next run takes a new baseline, reports nothing, and learns again.
			const forgot = await runCli(['noise', 'forget', ticker, '--store', store]);
			expect(forgot).toMatchObject({ status: 0, stderr: expect.stringContaining('forgot the learned noise of 1 page') });
			expect((await runCli(['rules', 'test', ticker, '--store', store])).stderr).toContain('no noise learned for this page');
		} finally {
			await dir.cleanup();
		}
	});

	it('a change partly in noise and partly outside it is reported; stats and forget work per host', async () => {
		const dir = await tempDir('revisit-partly-');
		try {
			const store = path.join(dir.dir, 'store');
			const urls = shop.urls.join('\n');
			const sweep = async () => lines((await runCli(['sweep', '--store', store, '--learn-noise'], urls)).stdout);
			// Two runs learn the noise: the first, each page's own (its second fetch) and the host's
			// from enough pages; the second keeps every page's hash under the host's places too. A
			// change right after a place starts to apply would be a rebaseline (it may lie there).
			await sweep();
			await sweep();
			// Every answer moves the ad, nonce and timestamp (noise); this one moves the price too.
			shop.price.set(2, 99);
			expect(await sweep()).toEqual([shop.url('/product/2')]);
			const table = await runCli(['stats', '--store', store]);
			expect(table.stdout).toMatch(/Learned noise of http:\/\/127\.0\.0\.1:\d+/);
			expect(table.stdout).toMatch(/\/product\/\* {2}html:html>body>main\.product>aside\.ad {2}applies to every page since/);
			const forgot = await runCli(['noise', 'forget', shop.origin, '--store', store]);
			expect(forgot.stderr).toContain('forgot the learned noise of 6 pages and 1 host');
			expect(ndjson((await runCli(['stats', '--store', store, '--json'])).stdout)[0]).toMatchObject({ learned: [] });
			// Forgotten noise is a new baseline, not a flood of changes.
			expect(await sweep()).toEqual([]);
		} finally {
			await dir.cleanup();
		}
	});
});
