import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Row = { url: string; changed: boolean; reason: string; product?: Record<string, unknown>; previous?: Record<string, unknown> };

const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

/** What the shop serves now; the related products' prices and a token move on every answer. */
interface State {
	fetches: number;
	/** The sale page: its price, and the price struck through beside it (none before the sale). */
	sale: { price: number; was?: number };
	/** The variant page's three sizes. */
	sizes: { id: number; price: number; availability: string }[];
}

const random = (state: State) => (((state.fetches * 7919) % 97) + 3 + 0.99).toFixed(2);

// WooCommerce with Yoast: the product in an @graph, the theme's related products as an ItemList and as microdata cards, all with prices of their own.
const woo = (state: State) =>
	`<!doctype html><html><head><title>Espresso Grinder E65 - Kaffeehaus</title>${ld({
		'@context': 'https://schema.org',
		'@graph': [
			{ '@type': 'WebPage', '@id': 'https://kaffeehaus.example/produkt/e65/' },
			{
				'@type': 'Product',
				name: 'Espresso Grinder E65',
				offers: [
					{
						'@type': 'Offer',
						price: '259.00',
						priceCurrency: 'EUR',
						availability: 'http://schema.org/InStock',
						priceValidUntil: `2027-01-${String((state.fetches % 28) + 1).padStart(2, '0')}`,
					},
				],
			},
			{
				'@type': 'ItemList',
				itemListElement: [1, 2].map((position) => ({
					'@type': 'ListItem',
					position,
					item: { '@type': 'Product', name: `Related ${position}`, offers: { '@type': 'Offer', price: random(state), priceCurrency: 'EUR' } },
				})),
			},
		],
	})}</head><body><h1 class="product_title">` +
	`Espresso Grinder E65</h1><form class="cart" method="post"><button name="add-to-cart" value="65">In den Warenkorb</button></form>
<input type="hidden" name="woocommerce-nonce" value="n${state.fetches}">
<section class="related products"><ul>` +
	[1, 2]
		.map(
			(n) =>
				`<li itemscope itemtype="https://schema.org/Product"><span itemprop="name">Related ${n}</span><div itemprop="offers" itemscope ` +
				`itemtype="https://schema.org/Offer"><meta itemprop="price" content="${random(state)}"><meta itemprop="priceCurrency" content="EUR">` +
				`</div></li>`,
		)
		.join('') +
	`</ul></section></body></html>`;

// Magento: the product's microdata item holds the <h1>; the "customers also bought" block is items of their own, with moving prices.
const magento = (state: State) =>
	`<!doctype html><html><head><title>Driven Backpack</title></head><body>
<div itemscope itemtype="http://schema.org/Product"><h1><span itemprop="name">Driven Backpack</span></h1>
<div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><meta itemprop="price" content="36"><meta itemprop="priceCurrency" content="USD">` +
	`<link itemprop="availability" href="http://schema.org/InStock"></div>
<form action="/checkout/cart/add/" id="product_addtocart_form" method="post"><input type="hidden" name="form_key" value="k${state.fetches}"></form>` +
	`</div>
<div class="block crosssell">` +
	[1, 2, 3]
		.map(
			(n) =>
				`<div itemscope itemtype="http://schema.org/Product"><strong itemprop="name">Bag ${n}</strong><div itemprop="offers" itemscope ` +
				`itemtype="http://schema.org/Offer"><meta itemprop="price" content="${random(state)}"></div></div>`,
		)
		.join('') +
	`</div></body></html>`;

// A sale as a WooCommerce theme shows it in microdata: the old price in <del>, the new one in <ins>.
const sale = (state: State) =>
	`<!doctype html><html><head><title>Trail Shoe</title></head><body><div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Trail ` +
	`Shoe</h1>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="USD"><p class="price">` +
	(state.sale.was === undefined ? '' : `<del><span itemprop="price">$${state.sale.was.toFixed(2)}</span></del> `) +
	`<ins><span itemprop="price">$${state.sale.price.toFixed(2)}</span></ins></p></div></div>
<p>Viewed ${state.fetches} times</p></body></html>`;

// Shopify: one offer per size, each with its ?variant= URL; the page is watched for one size.
const shopify = (state: State) =>
	`<!doctype html><html><head><title>Merino Beanie</title>${ld({
		'@context': 'http://schema.org/',
		'@type': 'Product',
		name: 'Merino Beanie',
		offers: state.sizes.map((size) => ({
			'@type': 'Offer',
			price: size.price,
			priceCurrency: 'USD',
			availability: `http://schema.org/${size.availability}`,
			url: `/products/merino-beanie?variant=${size.id}`,
		})),
	})}</head><body><h1>Merino Beanie</h1><span class="token">${state.fetches}</span></body></html>`;

// A price written as an object, as some plugins write it.
const objectPrice = () =>
	`<!doctype html><html><head>` +
	ld({
		'@type': 'Product',
		name: 'Lamp',
		offers: { '@type': 'AggregateOffer', lowPrice: { '@type': 'PriceSpecification', price: '49.90' }, highPrice: { '@value': '59.90' }, priceCurrency: 'EUR' },
	}) +
	`</head><body></body></html>`;

const PAGES: Record<string, (state: State) => string> = {
	'/woo': woo,
	'/magento': magento,
	'/sale': sale,
	'/products/merino-beanie': shopify,
	'/object-price': objectPrice,
};

describe("--product reads this page's product: related products' moving prices are never a change; a sale is; a URL's variant is watched", () => {
	let server: TestServer;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	const state: State = {
		fetches: 0,
		sale: { price: 59.99 },
		sizes: [
			{ id: 40011, price: 25, availability: 'OutOfStock' },
			{ id: 40012, price: 25, availability: 'OutOfStock' },
			{ id: 40013, price: 29, availability: 'InStock' },
		],
	};
	beforeAll(async () => {
		server = await startServer((req, res) => {
			const path = new URL(req.url ?? '/', 'http://x').pathname;
			const page = Object.hasOwn(PAGES, path) ? PAGES[path] : undefined;
			state.fetches++;
			res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ? page(state) : '');
		});
		dir = await tempDir('revisit-product-this-page-');
	});
	afterAll(async () => {
		await server.close();
		await dir.cleanup();
	});

	const urls = () => ['/woo', '/magento', '/sale', '/products/merino-beanie?variant=40012'].map((path) => server.url(path));
	const sweep = async (...extra: string[]): Promise<Record<string, Row>> => {
		const run = await runCli(['sweep', '--store', `${dir.dir}/store`, '--product', '--ndjson', ...extra], urls().join('\n'));
		expect(run.status, run.stderr).toBe(0);
		const rows = ndjson(run.stdout) as unknown as Row[];
		expect(rows, run.stdout).toHaveLength(4);
		// The changes only: with --all every URL has a verdict, its reason same-content when nothing counted moved.
		return Object.fromEntries(rows.filter((row) => row.changed).map((row) => [new URL(row.url).pathname, row]));
	};

	it('reads each page right, reports nothing over three more runs of moving related prices, then exactly the sale and the size restocked', async () => {
		const first = await sweep();
		expect(first['/woo']).toMatchObject({ reason: 'new', product: { price: 259, currency: 'EUR', availability: 'InStock' } });
		expect(first['/magento']).toMatchObject({ reason: 'new', product: { price: 36, currency: 'USD', availability: 'InStock' } });
		expect(first['/sale']).toMatchObject({ reason: 'new', product: { price: 59.99, currency: 'USD' } });
		// The size the URL names: 25 and sold out, though another size is in stock at 29.
		expect(first['/products/merino-beanie']).toMatchObject({ reason: 'new', product: { price: 25, currency: 'USD', availability: 'OutOfStock', prices: 2 } });

		// The related products' prices, the tokens and the dates move on every answer; another size's price moves too.
		for (let run = 0; run < 3; run++) {
			state.sizes[2]!.price = 30 + run;
			expect(await sweep('--all')).toEqual({});
		}

		// The sale starts: the old price is struck through, the new one is the price.
		state.sale = { price: 39.99, was: 59.99 };
		state.sizes[1]!.availability = 'InStock';
		const changed = await sweep('--all');
		expect(Object.keys(changed).sort()).toEqual(['/products/merino-beanie', '/sale']);
		expect(changed['/sale']).toMatchObject({
			changed: true,
			reason: 'price',
			product: { price: 39.99, listPrice: 59.99, currency: 'USD' },
			previous: { price: 59.99 },
		});
		expect(changed['/products/merino-beanie']).toMatchObject({
			changed: true,
			reason: 'availability',
			product: { price: 25, availability: 'InStock' },
			previous: { availability: 'OutOfStock' },
		});

		// The struck-through price moves alone: the price asked did not, and that is no change.
		state.sale = { price: 39.99, was: 69.99 };
		expect(await sweep('--all')).toEqual({});
	}, 120_000);

	it('rules test --product shows a price given as an object as written, never as [object Object]', async () => {
		const run = await runCli(['rules', 'test', server.url('/object-price'), '--product']);
		expect(run.status, run.stderr).toBe(0);
		expect(run.stdout).toBe('price: 49.9 EUR\n');
		expect(run.stderr).toContain('the offer: price 49.9 EUR');
		expect(`${run.stdout}${run.stderr}`).not.toContain('[object Object]');
	});

	it("rules test --product says which product's offers were read, and names the related ones as another product's", async () => {
		const run = await runCli(['rules', 'test', server.url('/woo'), '--product']);
		expect(run.status, run.stderr).toBe(0);
		expect(run.stdout).toBe('price: 259 EUR\navailability: InStock\n');
		expect(run.stderr).toContain("not taken: not this page's product: another product's (inside ItemList)");
	});
});
