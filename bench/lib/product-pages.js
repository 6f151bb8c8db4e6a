// Product pages as shops serve them, for bench/product-parse.js and test/domain/product/offer.test.ts:
// `node bench/lib/product-pages.js` writes them to bench/data/product/ (seeded, so the same
// files each time). Each page carries the chrome that makes a real one big (a mega menu,
// inline scripts and state, styles, reviews, recommendations with their own prices, a
// footer, a CSRF token) around its offer, in one markup each:
//   shopify.html      JSON-LD Product with an offers array (4 variants, 2 prices) + og:price
//   magento.html      microdata Product > Offer, the price as text ($121.95), availability link
//   opengraph.html    Open Graph product:price:* and product:availability only
//   yoast-group.html  a Yoast-style @graph (WebPage, BreadcrumbList, Organization) with a
//                     ProductGroup whose variants' offers use priceSpecification, German text
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from './prng.js';

const WORDS = (
	'soft warm steel kettle brew fine quick light solid classic matte glass handle lid spout base cord boil ' +
	'water tea coffee kitchen daily gift size colour stone oak black white silver compact quiet fast safe'
).split(' ');

function chrome(seed) {
	const random = mulberry32(seed);
	const pick = () => WORDS[Math.floor(random() * WORDS.length)];
	const words = (n) => Array.from({ length: n }, pick).join(' ');
	const menu = Array.from(
		{ length: 12 },
		(_, i) =>
			`<li class="menu__item menu__item--top"><a class="menu__link" href="/collections/${pick()}-${i}">${words(2)}</a><ul class="menu__sub">` +
			Array.from(
				{ length: 14 },
				(_, j) => `<li class="menu__item"><a class="menu__link" href="/collections/${pick()}-${i}-${j}" data-track="nav-${i}-${j}">${words(2)}</a></li>`,
			).join('') +
			`</ul></li>`,
	).join('\n');
	const analytics =
		`<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',` +
		`'G-${Math.floor(random() * 1e8)}');` +
		Array.from({ length: 120 }, (_, i) => `window.__m${i}=function(a,b){return a&&b?a.concat(b):${i}};`).join('') +
		`</script>`;
	const style =
		`<style>` +
		Array.from({ length: 160 }, (_, i) => `.c${i}{margin:${i % 7}px ${i % 5}px;color:#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`).join('') +
		`</style>`;
	const reviews = Array.from(
		{ length: 25 },
		(_, i) =>
			`<article class="review" id="review-${i}"><header><span class="review__author">${words(2)}</span> <span class="review__stars" ` +
			`aria-label="${1 + (i % 5)} stars">${'★'.repeat(1 + (i % 5))}</span> <time datetime="2026-0${1 + (i % 9)}-1${i % 10}">${1 + (i % 28)} days ` +
			`ago</time></header><h4>${words(4)}</h4><p>${words(60)}</p><footer><button class="helpful" data-review="${i}">Helpful ` +
			`(${(i * 7) % 31})</button></footer></article>`,
	).join('\n');
	const cards = (currency) =>
		Array.from(
			{ length: 12 },
			(_, i) =>
				`<div class="card"><a href="/products/${pick()}-${i}"><img src="/cdn/${pick()}-${i}.jpg" alt="${words(3)}" loading="lazy" width="300" ` +
				`height="300"></a><h3 class="card__title">${words(3)}</h3><span class="price price--card">` +
				`${currency}${(9 + ((i * 37) % 90)).toFixed(2)}</span><button class="card__add">Add to cart</button></div>`,
		).join('\n');
	const footer = Array.from({ length: 60 }, (_, i) => `<li><a href="/pages/${pick()}-${i}">${words(2)}</a></li>`).join('');
	const state =
		`<script id="app-state">window.__STATE__=` +
		JSON.stringify({
			token: (random() * 1e16).toString(36),
			recentlyViewed: Array.from({ length: 40 }, (_, i) => ({ id: 1000 + i, title: words(3), url: `/products/${pick()}-${i}`, image: `/cdn/${pick()}.jpg` })),
			translations: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`key_${i}`, words(6)])),
		}) +
		`</script>`;
	const description = Array.from({ length: 6 }, () => `<p>${words(70)}</p>`).join('');
	return { words, menu, analytics, style, reviews, cards, footer, state, description };
}

const frame = (c, { head, product, lang = 'en', currency = '$' }) =>
	`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${c.words(4)}</title><meta name="description" content="${c.words(25)}"><link rel="canonical" href="https://shop.example/products/kettle">
${c.style}${c.analytics}${head}</head>
<body class="template-product"><a class="skip" href="#main">Skip to content</a>
<header class="site-header"><form class="search" action="/search"><input type="hidden" name="csrf" value="${c.words(1)}-${c.words(1)}-8f3a"><input ` +
	`name="q" placeholder="Search"></form>
<nav class="menu"><ul>${c.menu}</ul></nav></header>
<main id="main"><nav class="breadcrumbs"><a href="/">Home</a> / <a href="/collections/kitchen">Kitchen</a> / Kettle</nav>
${product}
<section class="description"><h2>Description</h2>${c.description}</section>
<section class="reviews"><h2>Reviews</h2>${c.reviews}</section>
<section class="recommended"><h2>You may also like</h2>${c.cards(currency)}</section>
<section class="recently-viewed"><h2>Recently viewed</h2><div data-recently-viewed></div></section></main>
<footer class="site-footer"><ul>${c.footer}</ul><p>Page generated at 2026-12-06T04:00:00Z</p></footer>
${c.state}</body></html>
`;

const ld = (value) => `<script type="application/ld+json">${JSON.stringify(value, null, 2)}</script>`;

function shopify() {
	const c = chrome(1);
	const variants = [
		['1 l', '2879.20', true],
		['1.5 l', '2879.20', false],
		['1.7 l', '2999.00', true],
		['2 l', '2879.2', true],
	];
	const product = {
		'@context': 'http://schema.org/',
		'@type': 'Product',
		name: 'Stovetop kettle',
		url: 'https://shop.example/products/kettle',
		image: ['https://shop.example/cdn/kettle.jpg'],
		description: c.words(40),
		sku: 'KET-1',
		brand: { '@type': 'Brand', name: 'Kettleworks' },
		offers: variants.map(([size, price, stock], i) => ({
			'@type': 'Offer',
			sku: `KET-1-${i}`,
			name: size,
			availability: stock ? 'http://schema.org/InStock' : 'http://schema.org/OutOfStock',
			price,
			priceCurrency: 'SEK',
			priceValidUntil: '2026-12-07',
			url: `https://shop.example/products/kettle?variant=${4000 + i}`,
		})),
	};
	const head =
		`<meta property="og:type" content="product"><meta property="og:title" content="Stovetop kettle"><meta property="og:price:amount" ` +
		`content="2.879,20"><meta property="og:price:currency" content="SEK">` +
		ld({ '@context': 'http://schema.org', '@type': 'Organization', name: 'Shop', sameAs: ['https://social.example/shop'] }) +
		`${ld(product)}<script type="application/json" id="ProductJson">` +
		JSON.stringify({
			id: 1,
			title: 'Stovetop kettle',
			variants: variants.map(([size, price], i) => ({ id: 4000 + i, title: size, price: Number(price) * 100 })),
		}) +
		`</script>`;
	const body =
		`<div class="product"><h1>Stovetop kettle</h1><div class="price"><span class="price__current">2 879,20 kr</span></div><select name="id">` +
		variants.map(([size], i) => `<option value="${4000 + i}">${size}</option>`).join('') +
		`</select><button>Add to cart</button></div>`;
	return frame(c, { head, product: body, currency: 'kr ' });
}

function magento() {
	const c = chrome(2);
	const body =
		`<div class="product-info-main" itemscope itemtype="http://schema.org/Product"><h1 class="page-title"><span itemprop="name">Cast iron ` +
		`kettle</span></h1>
<div class="product-reviews-summary" itemprop="aggregateRating" itemscope itemtype="http://schema.org/AggregateRating"><span itemprop="ratingValue">` +
		`4.6</span>/<span itemprop="bestRating">5</span> (<span itemprop="reviewCount">25</span> reviews)</div>
<div class="product-info-price" itemprop="offers" itemscope itemtype="http://schema.org/Offer"><span class="price-wrapper"><span class="price" ` +
		`itemprop="price">$121.95</span></span><meta itemprop="priceCurrency" content="USD"><link itemprop="availability" ` +
		`href="http://schema.org/InStock"><div class="stock available"><span>In stock</span></div></div>
<div class="product attribute sku"><strong>SKU</strong> <div itemprop="sku">CI-KET-9</div></div>
<script type="text/x-magento-init">` +
		JSON.stringify({
			'#product_addtocart_form': {
				configurable: {
					spConfig: {
						attributes: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${90 + i}`, { label: c.words(2), options: [{ id: i, label: c.words(1) }] }])),
					},
				},
			},
		}) +
		`</script>
<form id="product_addtocart_form" action="/checkout/cart/add"><input type="hidden" name="form_key" value="Xk29dLq0"><button>Add to Cart</button></form>` +
		`</div>`;
	return frame(c, { head: '<meta property="og:type" content="product">', product: body });
}

function opengraph() {
	const c = chrome(3);
	const head =
		`<meta property="og:type" content="product"><meta property="og:title" content="Gooseneck kettle"><meta property="og:image" ` +
		`content="https://shop.example/cdn/gooseneck.jpg"><meta property="product:price:amount" content="59.00"><meta ` +
		`property="product:price:currency" content="EUR"><meta property="product:availability" content="oos"><meta property="product:brand" ` +
		`content="Pourer">`;
	const body =
		`<div class="product"><h1>Gooseneck kettle</h1><p class="price"><del>€69,00</del> <ins>€59,00</ins></p><p class="stock out-of-stock">Out ` +
		`of stock</p><form><input type="hidden" name="woocommerce-nonce" value="a81f2c"><button disabled>Add to basket</button></form></div>`;
	return frame(c, { head, product: body, currency: '€' });
}

function yoastGroup() {
	const c = chrome(4);
	const variant = (colour, price, availability) => ({
		'@type': 'Product',
		name: `Wasserkocher ${colour}`,
		color: colour,
		offers: {
			'@type': 'Offer',
			availability: `https://schema.org/${availability}`,
			priceSpecification: [
				{ '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: '1.499,00', priceCurrency: 'EUR' },
				{ '@type': 'UnitPriceSpecification', price, priceCurrency: 'EUR' },
			],
		},
	});
	const graph = {
		'@context': 'https://schema.org',
		'@graph': [
			{ '@type': 'WebPage', '@id': 'https://shop.example/p/wasserkocher#webpage', name: 'Wasserkocher', isPartOf: { '@id': 'https://shop.example/#website' } },
			{
				'@type': 'BreadcrumbList',
				itemListElement: [
					{ '@type': 'ListItem', position: 1, name: 'Start', item: 'https://shop.example/' },
					{ '@type': 'ListItem', position: 2, name: 'Küche' },
				],
			},
			{ '@type': 'Organization', '@id': 'https://shop.example/#organization', name: 'Laden' },
			{
				'@type': 'ProductGroup',
				name: 'Wasserkocher',
				productGroupID: 'WK',
				variesBy: ['https://schema.org/color'],
				hasVariant: [variant('Schwarz', '1.299,00', 'InStock'), variant('Weiß', '1.299,00', 'OutOfStock'), variant('Rot', '1.349,00', 'InStock')],
			},
		],
	};
	const body =
		`<div class="product"><h1>Wasserkocher</h1><p class="price"><del>1.499,00 €</del> 1.299,00 € <small>inkl. ` +
		`MwSt.</small></p><p class="stock in-stock">Auf Lager</p><button>In den Warenkorb</button></div>`;
	return frame(c, { head: ld(graph), product: body, lang: 'de', currency: '€ ' });
}

/** The pages, by file name, with the offer each should read as. */
export const PAGES = {
	'shopify.html': { make: shopify, offer: { from: 'json-ld', price: 2879.2, currency: 'SEK', availability: 'InStock', prices: 2 } },
	'magento.html': { make: magento, offer: { from: 'microdata', price: 121.95, currency: 'USD', availability: 'InStock' } },
	'opengraph.html': { make: opengraph, offer: { from: 'opengraph', price: 59, currency: 'EUR', availability: 'OutOfStock' } },
	'yoast-group.html': { make: yoastGroup, offer: { from: 'json-ld', price: 1299, currency: 'EUR', availability: 'InStock', prices: 2 } },
};

export const DATA = fileURLToPath(new URL('../data/product/', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	mkdirSync(DATA, { recursive: true });
	for (const [name, { make }] of Object.entries(PAGES)) {
		const html = make();
		writeFileSync(path.join(DATA, name), html);
		console.log(`${name} ${(Buffer.byteLength(html) / 1024).toFixed(0)} KB`);
	}
}
