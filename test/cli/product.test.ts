import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { SHOP_PAGES, startOfferShop } from '../helpers/offer-shop.js';
import { startReceiver } from '../io/notify/receiver.js';

type Row = {
	url: string;
	changed: boolean;
	reason: string;
	product?: { price?: number; currency?: string; availability?: string; prices?: number };
	previous?: Record<string, unknown>;
};

describe('--product on a shop whose pages carry their offer every way issue 28 lists, wrapped in noise that moves on every answer', () => {
	let shop: Awaited<ReturnType<typeof startOfferShop>>;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	let rules: string;
	beforeAll(async () => {
		shop = await startOfferShop();
		dir = await tempDir('revisit-product-');
		// The page without structured data is read by selectors, per URL pattern; every other page by --product's markup.
		rules = path.join(dir.dir, 'rules.json');
		await writeFile(rules, JSON.stringify([{ match: '/p/selectors$', price: ['.cost'], availability: ['.stock'] }, { product: true }]));
	});
	afterAll(async () => {
		await shop.close();
		await dir.cleanup();
	});

	const sweep = async (store: string, ...extra: string[]): Promise<Row[]> => {
		const run = await runCli(['sweep', '--store', store, '--rules', rules, '--ndjson', ...extra], shop.urls.join('\n'));
		expect(run.status, run.stderr).toBe(0);
		return ndjson(run.stdout) as unknown as Row[];
	};
	const byKind = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.url.replace(/.*\/p\//, ''), row]));

	it('run 1 reads every price and availability right, run 2 reports nothing, then exactly the 3 prices and 2 availabilities changed', async () => {
		const store = path.join(dir.dir, 'store');
		const first = byKind(await sweep(store));
		expect(Object.keys(first).sort()).toEqual([...SHOP_PAGES].sort());
		for (const kind of SHOP_PAGES) {
			const offer = shop.offers.get(kind)!;
			expect(first[kind], kind).toMatchObject({ changed: true, reason: 'new', product: { price: offer.price, availability: 'InStock' } });
			// The microdata-text page writes its price `$121.95` and names no currency or country: `$` on it is USD (docs/7-products.md).
			expect(first[kind]!.product!.currency, kind).toBe(kind === 'microdata-text' ? 'USD' : 'EUR');
		}
		// Three offers on one page, the lowest taken, and the verdict says there were several; one price written two ways is one.
		expect(first['jsonld-lowest']!.product!.prices).toBe(3);
		expect(first['microdata-and-jsonld']!.product!.prices).toBeUndefined();
		expect(first['jsonld-array']!.product!.prices).toBeUndefined();

		// Run 2: every page's bytes moved (tokens, dates, the recently viewed block), no offer did.
		const second = await sweep(store, '--all');
		expect(second.filter((row) => row.changed)).toEqual([]);
		expect(new Set(second.map((row) => row.reason))).toEqual(new Set(['same-content']));

		shop.offers.get('jsonld-graph')!.price = 17.99;
		shop.offers.get('microdata-content')!.price = 1234.5;
		shop.offers.get('selectors')!.price = 999;
		shop.offers.get('opengraph')!.availability = 'OutOfStock';
		shop.offers.get('microdata-text')!.availability = 'OutOfStock';
		const { server: receiver, received } = await startReceiver();
		const third = byKind(await sweep(store, '--notify', `json://127.0.0.1:${new URL(receiver.origin).port}/hook`).finally(() => receiver.close()));
		// Each change was delivered before it was committed, with the offer before and after.
		const posted = Object.fromEntries(received.map(({ body }) => [(body as { url: string }).url.replace(/.*\/p\//, ''), body as Row]));
		expect(Object.keys(posted).sort()).toEqual(Object.keys(third).sort());
		expect(posted['opengraph']).toMatchObject({ reason: 'availability', product: { availability: 'OutOfStock' }, previous: { availability: 'InStock' } });
		expect(Object.keys(third).sort()).toEqual(['jsonld-graph', 'microdata-content', 'microdata-text', 'opengraph', 'selectors']);
		expect(third['jsonld-graph']).toMatchObject({
			reason: 'price',
			product: { price: 17.99, currency: 'EUR' },
			previous: { price: first['jsonld-graph']!.product!.price },
		});
		expect(third['microdata-content']).toMatchObject({ reason: 'price', product: { price: 1234.5 } });
		expect(third['selectors']).toMatchObject({ reason: 'price', product: { price: 999, currency: 'EUR', availability: 'InStock' }, previous: { price: 1299 } });
		expect(third['opengraph']).toMatchObject({ reason: 'availability', product: { availability: 'OutOfStock' }, previous: { availability: 'InStock' } });
		expect(third['microdata-text']).toMatchObject({ reason: 'availability', product: { availability: 'OutOfStock' }, previous: { availability: 'InStock' } });
		expect(await sweep(store)).toEqual([]);
	}, 120_000);

	it('--when reports exactly the pages that satisfy it; the rest become the baseline, not reported later', async () => {
		const own = await startOfferShop();
		try {
			const store = path.join(dir.dir, 'when-store');
			const sweepOwn = async (...extra: string[]) => {
				const run = await runCli(['sweep', '--store', store, '--rules', rules, '--ndjson', ...extra], own.urls.join('\n'));
				expect(run.status, run.stderr).toBe(0);
				return byKind(ndjson(run.stdout) as unknown as Row[]);
			};
			own.offers.get('microdata-content')!.availability = 'OutOfStock';
			expect(Object.keys(await sweepOwn())).toHaveLength(SHOP_PAGES.length);
			own.offers.get('jsonld-object')!.price = 15; // a drop under 40: reported
			own.offers.get('jsonld-array')!.price = 60; // a rise over 40: not
			own.offers.get('jsonld-variants')!.price = 41; // a drop, but not under 40: not
			own.offers.get('opengraph')!.availability = 'OutOfStock'; // gone out of stock: not
			own.offers.get('microdata-content')!.availability = 'InStock'; // a restock at 49.25: reported
			const when = ['--when', 'price < 40 or (in_stock and not was_in_stock)'];
			const met = await sweepOwn(...when, '--all');
			expect(
				Object.entries(met)
					.filter(([, row]) => row.changed)
					.map(([kind]) => kind)
					.sort(),
			).toEqual(['jsonld-object', 'microdata-content']);
			expect(
				Object.entries(met)
					.filter(([, row]) => row.reason === 'unmet')
					.map(([kind]) => kind)
					.sort(),
			).toEqual(['jsonld-array', 'jsonld-variants', 'opengraph']);
			expect(met['jsonld-object']).toMatchObject({ reason: 'price', product: { price: 15 }, previous: { price: 20 } });
			// The unmet changes are the baseline now: nothing to report, with or without the condition.
			expect(await sweepOwn()).toEqual({});
			// price_change is a fraction of the price before: a 13% drop passes -0.1, a 4% drop does not.
			own.offers.get('jsonld-lowest')!.price = 23;
			own.offers.get('jsonld-blocks')!.price = 41;
			expect(Object.keys(await sweepOwn('--when', 'price_change <= -0.1'))).toEqual(['jsonld-lowest']);
		} finally {
			await own.close();
		}
	}, 120_000);
});
