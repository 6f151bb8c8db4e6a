import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { SHOP_PAGES } from '../helpers/page-shops.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Row = { url: string; changed: boolean; reason: string; product?: Record<string, unknown> | null; previous?: Record<string, unknown>; problem?: string };

/** A page whose microdata names this product's price and, in a "more items" block the page does not name as related, cheaper ones. */
const MICRODATA_OTHERS =
	`<!doctype html><html><body><div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Espresso machine</h1>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="259.00">259,00 €</span><meta ` +
	`itemprop="priceCurrency" content="EUR"></div></div>
<div class="more-items"><div itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="44.99">44,99 €</span><meta ` +
	`itemprop="priceCurrency" content="EUR"></div></div></body></html>`;

describe('--product on shop pages without structured data, and on pages with no offer at all', () => {
	let server: TestServer;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	// What the shop shows now: the tote's sale price, and whether the blog post has grown a price.
	const state = { tote: '39.99', blogSells: false, served: 0 };
	beforeAll(async () => {
		server = await startServer((req, res) => {
			state.served++;
			// Noise on every answer: a token, and the related products' prices drawn anew.
			const noise = `<p class="session">session ${state.served}-${Math.random().toString(36).slice(2)}</p>`;
			const related =
				`<section class="related-products"><div class="tile"><span class="preis">${(5 + Math.random() * 20).toFixed(2).replace('.', ',')} ` +
				`€</span></div></section>`;
			const pages: Record<string, string> = {
				'/p/amazon': SHOP_PAGES['amazon']!.html.replace('</body>', `${noise}</body>`),
				'/p/german': SHOP_PAGES['german']!.html.replace('</main>', `${related}</main>${noise}`),
				'/p/tote': SHOP_PAGES['woo']!.html.replace('39.99</bdi>', `${state.tote}</bdi>`),
				'/p/blog': state.blogSells
					? SHOP_PAGES['blog']!.html.replace('</p>', '</p><span class="price">$24.00</span><button>Add to cart</button>')
					: SHOP_PAGES['blog']!.html.replace('</article>', `${noise}</article>`),
				'/p/espresso': MICRODATA_OTHERS,
				'/p/kettle':
					`<!doctype html><html><body><main><h1>Kettle</h1><p class="price">$29.99</p><p class="note">This item isn't ` +
					`in stock right now.</p><form><button class="add-to-cart">Add to cart</button></form></main></body></html>`,
			};
			const body = pages[req.url ?? ''];
			res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' }).end(body ?? '');
		});
		dir = await tempDir('revisit-product-page-');
	});
	afterAll(async () => {
		await server.close();
		await dir.cleanup();
	});

	const urls = ['/p/amazon', '/p/german', '/p/tote', '/p/blog'];
	const sweep = async (store: string, ...extra: string[]) => {
		const run = await runCli(['sweep', '--store', store, '--product', '--ndjson', ...extra], urls.map((page) => server.url(page)).join('\n'));
		expect(run.status, run.stderr).toBe(0);
		const rows = Object.fromEntries((ndjson(run.stdout) as unknown as Row[]).map((row) => [new URL(row.url).pathname, row]));
		return { rows, stderr: run.stderr };
	};
	const noOfferLine = (page: string) => `revisit: no offer found: ${server.url(page)}; try revisit rules test ${server.url(page)} --product\n`;

	it('reads the price and availability a page shows, says where from, and says once that a page has no offer', async () => {
		const store = path.join(dir.dir, 'sweep');
		const first = await sweep(store);
		expect(first.rows['/p/amazon']).toMatchObject({ reason: 'new', product: { price: 29.99, currency: 'USD', availability: 'InStock', source: 'page' } });
		expect(first.rows['/p/german']).toMatchObject({ reason: 'new', product: { price: 69.99, currency: 'EUR', availability: 'InStock', source: 'page' } });
		expect(first.rows['/p/tote']).toMatchObject({ reason: 'new', product: { price: 39.99, currency: 'USD', availability: 'InStock', source: 'page' } });
		expect(first.rows['/p/blog']).toMatchObject({ reason: 'new', product: null, problem: 'no-offer' });
		expect(first.stderr.split(noOfferLine('/p/blog')).length - 1).toBe(1);
		expect(first.stderr).not.toContain(noOfferLine('/p/amazon'));
		expect(first.stderr).toMatch(/revisit: 4 URLs, 4 changed, .*, 1 with no offer \(--product\), /);

		// Tokens and the related products' prices moved; the offers did not: nothing to report, and the page with no offer is not said again.
		const second = await sweep(store, '--all');
		expect(Object.values(second.rows).filter((row) => row.changed)).toEqual([]);
		expect(second.rows['/p/blog']).toMatchObject({ reason: 'same-content', product: null, problem: 'no-offer' });
		expect(second.stderr).not.toContain('no offer found');
		expect(second.stderr).toMatch(/, 1 with no offer \(--product\), /);

		// A sale starts: the price shown moves, and is reported as a price move.
		state.tote = '29.99';
		const third = await sweep(store);
		expect(third.rows['/p/tote']).toMatchObject({ reason: 'price', product: { price: 29.99, source: 'page' }, previous: { price: 39.99 } });
		expect(Object.keys(third.rows)).toEqual(['/p/tote']);
	}, 60_000);

	it('revisit stats lists the pages with no offer until they show one', async () => {
		const store = path.join(dir.dir, 'stats');
		state.blogSells = false;
		await sweep(store);
		const listed = await runCli(['stats', '--store', store]);
		expect(listed.status, listed.stderr).toBe(0);
		expect(listed.stdout).toContain(
			`A product page of ${server.origin} with no offer found (--product; revisit rules test URL --product shows why):\n  ${server.url('/p/blog')}\n`,
		);
		const json = (await runCli(['stats', '--store', store, '--json'])).stdout;
		expect(JSON.parse(json.trim().split('\n')[0]!)).toMatchObject({ noOffer: [server.url('/p/blog')] });
		state.blogSells = true;
		const now = await sweep(store);
		expect(now.rows['/p/blog']).toMatchObject({ product: { price: 24, currency: 'USD', availability: 'InStock', source: 'page' } });
		expect((await runCli(['stats', '--store', store])).stdout).not.toContain('no offer found');
		state.blogSells = false;
	}, 60_000);

	it('a watch says it once, and counts each check with no offer', async () => {
		const run = await runCli(
			[
				'watch',
				'--store',
				path.join(dir.dir, 'watch'),
				'--product',
				'--rate',
				'100/s',
				'--status-every',
				'off',
				'--time-scale',
				'3600',
				'--until',
				'150m',
				'--robots',
				'ignore',
				'--audit',
				'0',
			],
			`${server.url('/p/blog')}\n${server.url('/p/amazon')}\n`,
		);
		expect(run.status, run.stderr).toBe(0);
		expect(run.stderr.split(noOfferLine('/p/blog')).length - 1).toBe(1);
		const checks = Number(/(\d+) checks/.exec(run.stderr)?.[1]);
		expect(checks).toBeGreaterThan(2);
		expect(run.stderr).toMatch(/, \d+ with no offer \(--product\), /);
	}, 60_000);

	it('a pipeline file run says it once and counts it too', async () => {
		const file = path.join(dir.dir, 'pipeline.json');
		await writeFile(path.join(dir.dir, 'products.txt'), `${server.url('/p/blog')}\n${server.url('/p/tote')}\n`);
		await writeFile(
			file,
			JSON.stringify({
				store: { path: path.join(dir.dir, 'run') },
				source: { type: 'file', path: path.join(dir.dir, 'products.txt') },
				stages: [{ use: 'compare', rules: [{ product: true, exclude: ['.related'] }] }],
				sinks: [{ type: 'stdout', format: 'ndjson' }],
			}),
		);
		const first = await runCli(['run', file, '--set', 'audit=0']);
		expect(first.status, first.stderr).toBe(0);
		expect(ndjson(first.stdout).find((row) => row['url'] === server.url('/p/blog'))).toMatchObject({ product: null, problem: 'no-offer' });
		expect(first.stderr.split(noOfferLine('/p/blog')).length - 1).toBe(1);
		expect(first.stderr).toMatch(/, 1 with no offer \(--product\), /);
		const second = await runCli(['run', file, '--set', 'audit=0']);
		expect(second.stderr).not.toContain('no offer found');
	});

	it('rules test --product explains the offer as the sweep reads it: with --exclude, from the page without the excluded block', async () => {
		const excluded = await runCli(['rules', 'test', server.url('/p/espresso'), '--product', '--exclude', '.more-items']);
		expect(excluded.status, excluded.stderr).toBe(0);
		expect(excluded.stdout).toBe('price: 259 EUR\n');
		expect(excluded.stderr).toContain('revisit: the offer: price 259 EUR (price from microdata)\n');
		expect(excluded.stderr).not.toContain('44.99');
		// Without it, the other product's cheaper offer is read (and rules test says which offer was taken and why the other was not).
		const whole = await runCli(['rules', 'test', server.url('/p/espresso'), '--product']);
		expect(whole.stderr).toContain('revisit: the offer: price 44.99 EUR (price from microdata, one of 2 prices)\n');
		expect(whole.stderr).toMatch(
			/price "259\.00" → 259, currency EUR {2}not taken: its price: the offer's is 44\.99 \(the URL's variant, else the lowest that can be had\)\n/,
		);
	});

	it('rules test --product lists what the page showed and why each price was or was not taken', async () => {
		const run = await runCli(['rules', 'test', server.url('/p/tote'), '--product']);
		expect(run.status, run.stderr).toBe(0);
		expect(run.stderr).toContain(
			'revisit: the offer: price 29.99 USD, availability InStock (price from page)\nthe currency: ' +
				'"$", read as USD: a bare $ on a page in English naming no country\n',
		);
		expect(run.stderr).toContain('  page  p.price, nearest the title  price "$ 29.99" → 29.99, currency $  taken: the price\n');
		expect(run.stderr).toContain(
			'  page  button.single_add_to_cart_button.button.alt, the buy button, enabled  availability "Add to cart" → InStock  taken: the availability\n',
		);
		expect(run.stderr).toContain('not taken on the page:\n  span.price "$ 12.00": in a block of other products (section.related.products)\n');
		const none = await runCli(['rules', 'test', server.url('/p/blog'), '--product']);
		expect(none.status).toBe(1);
		expect(none.stderr).toContain('revisit: no offer on this page:');
	});

	it("rules test --product says why a stock note's words win over an enabled buy button", async () => {
		const run = await runCli(['rules', 'test', server.url('/p/kettle'), '--product']);
		expect(run.status, run.stderr).toBe(0);
		expect(run.stderr).toContain('revisit: the offer: price 29.99 USD, availability OutOfStock (price from page)\n');
		expect(run.stderr).toContain(
			`  page  p.note, a stock note 3 steps from the buy button (button.add-to-cart, enabled): its words win over the button, ` +
				`"in stock" negated by "isn't"  availability "This item isn't in stock right now." → OutOfStock  taken: the availability\n`,
		);
	});
});

// Shops under named hosts, reached through a local server that answers as their proxy (--proxy): a page's URL is the shop's own.
describe('--product reads `£` by the domain of the shop', () => {
	let proxy: TestServer;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	const price = { now: '150' };
	beforeAll(async () => {
		proxy = await startServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://unnamed.invalid');
			const page =
				`<!doctype html><html lang="en"><head><title>Trail Sandal</title></head><body><main><h1>Trail Sandal</h1><p class="price">£ ${price.now}</p>` +
				'<form action="/cart/add"><button type="submit" class="add-to-cart">Add to cart</button></form></main></body></html>';
			if (url.pathname === '/p/sandal') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
			else res.writeHead(404).end();
		});
		dir = await tempDir('revisit-product-pound-');
	});
	afterAll(async () => {
		await proxy.close();
		await dir.cleanup();
	});

	it('an Egyptian shop (.com.eg) prices in EGP; a British (.co.uk) and a .com one in GBP, before and after a price move', async () => {
		const hosts = ['shop.example.com.eg', 'shop.example.co.uk', 'shop.example.com'];
		const sweep = async () => {
			const run = await runCli(
				['sweep', '--store', path.join(dir.dir, 'store'), '--product', '--ndjson', '--proxy', proxy.origin],
				hosts.map((host) => `http://${host}/p/sandal`).join('\n'),
			);
			expect(run.status, run.stderr).toBe(0);
			return Object.fromEntries((ndjson(run.stdout) as unknown as Row[]).map((row) => [new URL(row.url).hostname, row]));
		};
		const first = await sweep();
		expect(first['shop.example.com.eg']).toMatchObject({ reason: 'new', product: { price: 150, currency: 'EGP', source: 'page' } });
		expect(first['shop.example.co.uk']).toMatchObject({ reason: 'new', product: { price: 150, currency: 'GBP', source: 'page' } });
		expect(first['shop.example.com']).toMatchObject({ reason: 'new', product: { price: 150, currency: 'GBP', source: 'page' } });
		// The requests went to the shops by name: the proxy saw each host's page.
		for (const host of hosts) expect(proxy.seen(`http://${host}/p/sandal`)).toHaveLength(1);
		price.now = '135';
		const second = await sweep();
		expect(second['shop.example.com.eg']).toMatchObject({
			reason: 'price',
			product: { price: 135, currency: 'EGP' },
			previous: { price: 150, currency: 'EGP' },
		});
		expect(second['shop.example.co.uk']).toMatchObject({
			reason: 'price',
			product: { price: 135, currency: 'GBP' },
			previous: { price: 150, currency: 'GBP' },
		});
	}, 60_000);
});
