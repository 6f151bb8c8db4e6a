import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { CHROMIUM } from '../helpers/browser.js';
import { describeNeeding } from '../helpers/debian.js';
import { startDrawnSite, type DrawnSite } from '../helpers/drawn-site.js';

type Row = {
	url: string;
	changed: boolean;
	reason: string;
	rendered?: boolean;
	error?: { code: string };
	product?: { price?: number; currency?: string; source?: string } | null;
	previous?: { price?: number };
};

describeNeeding(CHROMIUM, 'sweep --render auto on pages drawn by script, in Debian chromium', () => {
	let site: DrawnSite;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	beforeAll(async () => {
		site = await startDrawnSite();
		dir = await tempDir('revisit-render-drawn-');
	});
	afterAll(async () => {
		await site?.close();
		await dir?.cleanup();
	});

	const sweep = async (store: string, paths: string[], ...extra: string[]) => {
		const run = await runCli(
			['sweep', '--store', store, '--render', 'auto', '--ndjson', '--all', '--audit', '0', ...extra, ...paths.map((p) => site.url(p))],
			'',
			{ PATH: process.env.PATH ?? '' },
		);
		expect(run.stderr).not.toContain('RENDER_TIMEOUT');
		expect(run.status, run.stderr).toBe(0);
		return Object.fromEntries((ndjson(run.stdout) as unknown as Row[]).map((row) => [new URL(row.url).pathname, row]));
	};

	it('reads a product a script draws without structured data (title, price, buy button) on its first check, and reports its price drop', async () => {
		const store = path.join(dir.dir, 'product');
		const pages = ['/drawn', '/drawn-inline'];
		site.price = 24.5;
		const first = await sweep(store, pages, '--product');
		for (const page of pages)
			expect(first[page], page).toMatchObject({ reason: 'new', rendered: true, product: { price: 24.5, currency: 'EUR', source: 'page' } });

		// The offer is what the store holds: nothing moved, nothing to report.
		const second = await sweep(store, pages, '--product');
		for (const page of pages) expect(second[page], page).toMatchObject({ changed: false, rendered: true, product: { price: 24.5 } });

		site.price = 19.99;
		const third = await sweep(store, pages, '--product');
		for (const page of pages)
			expect(third[page], page).toMatchObject({
				changed: true,
				reason: 'price',
				rendered: true,
				product: { price: 19.99, source: 'page' },
				previous: { price: 24.5 },
			});
	}, 120_000);

	it('renders a page whose text an inline script writes, and diffs the words that changed; a static page with analytics snippets is not rendered', async () => {
		const store = path.join(dir.dir, 'story');
		const pages = ['/story', '/analytics'];
		site.story = 'The council voted to open the library on Sundays.';
		const first = await sweep(store, pages);
		expect(first['/story']).toMatchObject({ reason: 'new', rendered: true });
		expect(first['/analytics']).toMatchObject({ reason: 'new' });
		expect(first['/analytics']!.rendered).toBeUndefined();

		site.story = 'The council voted to open the library on Saturdays.';
		const second = await sweep(store, pages);
		expect(second['/story']).toMatchObject({ changed: true, rendered: true });
		expect(second['/analytics']).toMatchObject({ changed: false });
		expect(second['/analytics']!.rendered).toBeUndefined();

		const diff = await runCli(['diff', '--store', store, site.url('/story')]);
		expect(diff.stderr).toBe('');
		expect(diff.status).toBe(1);
		expect(diff.stdout).toContain('library on [-Sundays-]{+Saturdays+}.');
	}, 120_000);
});
