import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { CHROMIUM } from '../helpers/browser.js';
import { describeNeeding } from '../helpers/debian.js';
import { startSpaSite, type SpaSite } from '../helpers/spa-site.js';

type Row = { url: string; changed: boolean; reason: string; rendered?: boolean; product?: { price?: number } };

describeNeeding(CHROMIUM, 'sweep --render auto on a static page and two SPAs, in Debian chromium', () => {
	let site: SpaSite;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	beforeAll(async () => {
		site = await startSpaSite();
		dir = await tempDir('revisit-render-');
	});
	afterAll(async () => {
		await site?.close();
		await dir?.cleanup();
	});

	it('renders only the SPAs, then revalidates what they loaded with conditional requests, rendering again only what moved', async () => {
		const store = path.join(dir.dir, 'store');
		const urls = ['/static', '/spa-api', '/spa-late'].map((p) => site.url(p));
		const sweep = async (...extra: string[]) => {
			const run = await runCli(['sweep', '--store', store, '--product', '--render', 'auto', '--ndjson', '--all', ...extra, ...urls], '', {
				PATH: process.env.PATH ?? '',
			});
			expect(run.status, run.stderr).toBe(0);
			return Object.fromEntries((ndjson(run.stdout) as unknown as Row[]).map((row) => [new URL(row.url).pathname, row]));
		};
		const first = await sweep();
		expect(first['/static']).toMatchObject({ reason: 'new', product: { price: 10 } });
		expect(first['/static']!.rendered).toBeUndefined();
		expect(first['/spa-api']).toMatchObject({ reason: 'new', rendered: true, product: { price: 11 } });
		expect(first['/spa-late']).toMatchObject({ reason: 'new', rendered: true, product: { price: 12 } });
		// The browser was given the shells revisit fetched: each was requested once, by revisit.
		expect(site.logOf('/spa-api')).toHaveLength(1);
		// stats lists, per URL template, the pages that need rendering and the data requests they load (each its document and its API call).
		const [host] = ndjson((await runCli(['stats', '--store', store, '--json'])).stdout);
		expect(host!['rendered']).toEqual([{ template: expect.any(String), pages: 2, data: 4 }]);

		// Nothing moved: conditional requests only, for the shells and their API calls, all 304; no browser.
		const before = site.log.length;
		// No audit: its unconditional GET of a page that answered 304 (2% of them, by default) is not a revalidation.
		const second = await sweep('--audit', '0');
		expect(Object.values(second).map((row) => row.reason)).toEqual(['304', '304', '304']);
		expect(Object.values(second).some((row) => row.rendered)).toBe(false);
		const seen = site.log.slice(before);
		expect(seen.map((entry) => entry.path).sort(), JSON.stringify(seen)).toEqual(['/api/price/1', '/api/price/2', '/spa-api', '/spa-late', '/static'].sort());
		expect(seen.every((entry) => entry.status === 304 && entry.ifNoneMatch !== undefined)).toBe(true);

		// The API prices move: exactly the two SPAs are reported, rendered again.
		site.prices.set(1, 9.5);
		site.prices.set(2, 30);
		const feed = path.join(dir.dir, 'changes.atom');
		const beforeThird = site.log.length;
		const third = await sweep('--atom', feed);
		expect(
			Object.entries(third)
				.filter(([, row]) => row.changed)
				.map(([p]) => p)
				.sort(),
		).toEqual(['/spa-api', '/spa-late']);
		expect(third['/spa-api']).toMatchObject({ reason: 'price', rendered: true, product: { price: 9.5 } });
		expect(third['/spa-late']).toMatchObject({ reason: 'price', rendered: true, product: { price: 30 } });
		// Each change's entry carries the word diff of what was rendered and counted.
		const atom = await readFile(feed, 'utf8');
		expect(atom).toContain('&lt;del&gt;11&lt;/del&gt;&lt;ins&gt;9.5&lt;/ins&gt;');
		expect(atom).toContain('&lt;del&gt;12&lt;/del&gt;&lt;ins&gt;30&lt;/ins&gt;');
		// Each moved API answer was fetched once, by got's conditional request: the browser was handed it.
		const apiSeen = site.log.slice(beforeThird).filter((entry) => entry.path.startsWith('/api/'));
		expect(apiSeen.map((entry) => `${entry.path} ${entry.status}`).sort()).toEqual(['/api/price/1 200', '/api/price/2 200']);
		expect(apiSeen.every((entry) => entry.ifNoneMatch !== undefined)).toBe(true);

		// The render recorded the handed answers' ETags: nothing moved since, so 304s and no browser.
		const beforeFourth = site.log.length;
		const fourth = await sweep('--audit', '0');
		expect(Object.values(fourth).map((row) => row.reason)).toEqual(['304', '304', '304']);
		expect(site.log.slice(beforeFourth).every((entry) => entry.status === 304)).toBe(true);
	}, 120_000);

	it("obeys the site's robots.txt for the page's own requests: " +
		'the disallowed API call is not made, so the page never gets its offer (RENDER_TIMEOUT)', async () => {
		const own = await startSpaSite();
		try {
			own.robots = 'User-agent: *\nDisallow: /api/\n';
			const run = await runCli([
				'sweep',
				'--store',
				path.join(dir.dir, 'robots-store'),
				'--robots',
				'obey',
				'--product',
				'--render',
				'auto',
				'--render-timeout',
				'2',
				'--ndjson',
				'--all',
				own.url('/spa-api'),
			]);
			expect(run.status).toBe(1);
			const [row] = ndjson(run.stdout) as unknown as Array<Row & { error?: { code: string } }>;
			expect(row).toMatchObject({ reason: 'error', error: { code: 'RENDER_TIMEOUT' } });
			expect(own.logOf('/api/price/1')).toEqual([]);
			expect(own.logOf('/robots.txt')).toHaveLength(1);
		} finally {
			await own.close();
		}
	}, 60_000);
});
