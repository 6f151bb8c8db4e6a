import { startServer, type TestServer } from './server.js';

/** An offer as the test sets it: the price and a schema.org availability short name. */
export interface ShopOffer {
	price: number;
	availability: 'InStock' | 'OutOfStock' | 'PreOrder' | 'BackOrder' | 'Discontinued' | 'LimitedAvailability';
}

const token = () => Math.random().toString(36).slice(2, 12);
const RECENT = ['Blue kettle', 'Garden hose', 'Desk lamp', 'Wool socks', 'Tea tin', 'Bike bell'];

/** `12.5` as a shop writes it in markup: always two decimals. */
const money = (price: number) => price.toFixed(2);
/** The German way, for the page read by selectors: `1.299,00`. */
const german = (price: number) => price.toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const SOLD_OUT: Record<ShopOffer['availability'], string> = {
	InStock: 'Auf Lager',
	OutOfStock: 'Ausverkauft',
	PreOrder: 'Vorbestellung',
	BackOrder: 'Nachbestellt',
	Discontinued: 'Nicht mehr lieferbar',
	LimitedAvailability: 'Nur noch 2 Stück',
};
const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const offerLd = (o: ShopOffer, until: string, prefix = 'https://schema.org/') => ({
	'@type': 'Offer',
	price: money(o.price),
	priceCurrency: 'EUR',
	availability: `${prefix}${o.availability}`,
	priceValidUntil: until,
});

/**
 * Each page carries its offer one way: the ways issue 28 lists, one page each. `until`
 * is a priceValidUntil that moves on every answer.
 */
const PAGES: Record<string, (o: ShopOffer, until: string) => string> = {
	'jsonld-object': (o, until) => ld({ '@context': 'https://schema.org', '@type': 'Product', name: 'Kettle', offers: offerLd(o, until) }),
	'jsonld-array': (o, until) => ld({ '@context': 'https://schema.org', '@type': 'Product', name: 'Hose', offers: [offerLd(o, until), offerLd(o, until)] }),
	'jsonld-lowest': (o, until) =>
		ld({
			'@context': 'https://schema.org',
			'@type': 'Product',
			name: 'Lamp',
			offers: [offerLd({ ...o, price: o.price + 5 }, until), offerLd(o, until), offerLd({ ...o, price: o.price + 9 }, until)],
		}),
	'jsonld-aggregate': (o, until) =>
		ld({
			'@context': 'https://schema.org',
			'@type': 'Product',
			name: 'Socks',
			offers: {
				'@type': 'AggregateOffer',
				lowPrice: o.price,
				highPrice: o.price + 20,
				priceCurrency: 'EUR',
				offerCount: 4,
				availability: `https://schema.org/${o.availability}`,
			},
		}),
	'jsonld-specification': (o, until) =>
		ld({
			'@context': 'https://schema.org',
			'@type': 'Product',
			name: 'Tin',
			offers: {
				'@type': 'Offer',
				priceSpecification: { '@type': 'UnitPriceSpecification', price: o.price, priceCurrency: 'EUR', validThrough: until },
				availability: o.availability,
			},
		}),
	'jsonld-capitals': (o, until) =>
		ld({
			'@context': 'http://schema.org',
			'@type': 'Product',
			Name: 'Bell',
			Offers: { '@type': 'Offer', Price: money(o.price), PriceCurrency: 'EUR', Availability: `http://schema.org/${o.availability}`, PriceValidUntil: until },
		}),
	'jsonld-graph': (o, until) =>
		ld({
			'@context': 'https://schema.org',
			'@graph': [
				{ '@type': 'WebSite', name: 'Shop', url: '/' },
				{ '@type': 'BreadcrumbList', itemListElement: [] },
				{ '@type': 'Product', name: 'Pot', offers: offerLd(o, until) },
			],
		}),
	'jsonld-blocks': (o, until) =>
		ld([
			{ '@context': 'https://schema.org', '@type': 'WebSite', name: 'Shop' },
			{ '@context': 'https://schema.org', '@type': 'Product', name: 'Pan', offers: offerLd(o, until) },
		]) + ld({ '@type': 'Organization', name: 'Shop Ltd' }),
	'jsonld-variants': (o, until) =>
		ld({
			'@context': 'https://schema.org',
			'@type': 'ProductGroup',
			name: 'Shirt',
			hasVariant: [
				{ '@type': 'Product', name: 'Shirt S', offers: offerLd(o, until) },
				{ '@type': 'Product', name: 'Shirt M', offers: offerLd(o, until) },
			],
		}),
	'microdata-content': (o) =>
		`<div itemscope itemtype="https://schema.org/Product"><h2 itemprop="name">Mug</h2><div itemprop="offers" itemscope itemtype="https://schema.org/Offer">` +
		`<span itemprop="price" content="${money(o.price)}">€${german(o.price)}</span><meta itemprop="priceCurrency" content="EUR">` +
		`<link itemprop="availability" href="https://schema.org/${o.availability}"></div></div>`,
	'microdata-text': (o) =>
		`<div itemscope itemtype="http://schema.org/Product"><div itemprop="offers" itemscope itemtype="http://schema.org/Offer">` +
		(`<span itemprop="price">$${money(o.price)}</span> <span itemprop="availability">` +
			(o.availability === 'InStock' ? 'In stock' : o.availability === 'OutOfStock' ? 'Out of stock' : o.availability) +
			`</span></div></div>`),
	'microdata-and-jsonld': (o, until) =>
		`<span itemprop="price" content="${money(o.price)}"></span>` +
		ld({
			'@context': 'https://schema.org',
			'@type': 'Product',
			offers: { '@type': 'Offer', price: o.price, priceCurrency: 'EUR', availability: `https://schema.org/${o.availability}`, priceValidUntil: until },
		}),
	opengraph: (o) =>
		`<meta property="og:type" content="product"><meta property="product:price:amount" content="${money(o.price)}"><meta ` +
		`property="product:price:currency" content="EUR">` +
		(`<meta property="product:availability" content="` +
			(o.availability === 'InStock' ? 'instock' : o.availability === 'OutOfStock' ? 'oos' : o.availability.toLowerCase()) +
			`">`),
	selectors: (o) => `<p class="cost">Jetzt nur ${german(o.price)} € inkl. MwSt.</p><p class="stock">${SOLD_OUT[o.availability]}</p>`,
};

/** The kinds of page, one per way of carrying an offer. */
export const SHOP_PAGES = Object.keys(PAGES);

/**
 * A shop whose product pages (`/p/KIND`, one per way issue 28 lists of carrying an offer)
 * wrap their offer in noise that moves on every answer: a priceValidUntil, a rotating
 * "recently viewed" block, a CSRF token, a timestamp. The test sets offers in `offers`
 * (by kind); each page starts at its own price, in stock. The `selectors` page has no
 * structured data: its price and availability are only in the text of `.cost` and `.stock`.
 *
 * @example
 * const shop = await startOfferShop();
 * shop.offers.get('opengraph')!.price = 19.5;
 */
export async function startOfferShop(): Promise<TestServer & { urls: string[]; offers: Map<string, ShopOffer>; urlOf(kind: string): string }> {
	const offers = new Map<string, ShopOffer>(
		SHOP_PAGES.map((kind, i) => [kind, { price: kind === 'selectors' ? 1299 : 20 + i * 3.25, availability: 'InStock' }]),
	);
	let served = 0;
	const server = await startServer((req, res) => {
		served++;
		const kind = /^\/p\/([a-z-]+)$/.exec(req.url ?? '')?.[1];
		const page = kind === undefined ? undefined : PAGES[kind];
		if (!page || !kind) return void res.writeHead(404).end('no such page');
		const at = new Date(Date.UTC(2026, 11, 6) + served * 86_400_000);
		const recent = Array.from({ length: 3 }, () => `<li>${RECENT[Math.floor(Math.random() * RECENT.length)]}</li>`).join('');
		res
			.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
			.end(
				`<!doctype html><html><head><title>${kind}</title><meta name="csrf-token" content="${token()}">` +
					`${kind === 'opengraph' ? page(offers.get(kind)!, '') : ''}</head>` +
					`<body><main><h1>A product (${kind})</h1>${kind === 'opengraph' ? '' : page(offers.get(kind)!, at.toISOString().slice(0, 10))}` +
					`<form><input type="hidden" name="csrf" value="${token()}"><button>Add to cart</button></form></main>` +
					`<aside class="recent"><h2>Recently viewed</h2><ul>${recent}</ul></aside><footer>Page generated ${at.toISOString()}</footer></body></html>`,
			);
	});
	const urlOf = (kind: string) => server.url(`/p/${kind}`);
	return Object.assign(server, { urls: SHOP_PAGES.map(urlOf), offers, urlOf });
}
