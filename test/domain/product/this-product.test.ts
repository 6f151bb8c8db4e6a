import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { explainOffer, readOffer } from '../../../src/domain/product/offer.js';
import { isVariant, variantOf } from '../../../src/domain/product/this-product.js';

const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const html = (head: string, body: string) =>
	`<!doctype html><html><head>${head}</head><body><header><a href="/cart">Cart (0)</a></header>${body}</body></html>`;

// A Shopify product page as Dawn writes it: a Product with one offer per variant, each with its ?variant= URL;
// the cheaper sizes sold out. The recommendations section is a grid of cards with no markup of their own.
const SHOPIFY = html(
	`<title>Merino Beanie – Northfold</title><link rel="canonical" href="https://northfold.example/products/merino-beanie">
	<meta property="og:title" content="Merino Beanie"><meta property="og:price:amount" content="25.00"><meta property="og:price:currency" content="USD">
	${ld({
		'@context': 'http://schema.org/',
		'@type': 'Product',
		name: 'Merino Beanie',
		url: 'https://northfold.example/products/merino-beanie',
		sku: 'MB-01',
		offers: [
			{
				'@type': 'Offer',
				sku: 'MB-01-S',
				availability: 'http://schema.org/OutOfStock',
				price: 25.0,
				priceCurrency: 'USD',
				url: 'https://northfold.example/products/merino-beanie?variant=40011',
			},
			{
				'@type': 'Offer',
				sku: 'MB-01-M',
				availability: 'http://schema.org/OutOfStock',
				price: 25.0,
				priceCurrency: 'USD',
				url: 'https://northfold.example/products/merino-beanie?variant=40012',
			},
			{
				'@type': 'Offer',
				sku: 'MB-01-XL',
				availability: 'http://schema.org/InStock',
				price: 29.0,
				priceCurrency: 'USD',
				url: 'https://northfold.example/products/merino-beanie?variant=40013',
			},
		],
	})}`,
	`<main><h1 class="product__title">Merino Beanie</h1><form method="post" action="/cart/add" id="product-form-template" class="form"><select name="id">` +
		`<option value="40011">S</option></select><button type="submit" name="add">Add to cart</button></form>
	<product-recommendations><ul class="grid"><li class="grid__item"><a href="/products/wool-socks">Wool Socks</a><span class="price-item">$12.00</span>` +
		`</li></ul></product-recommendations></main>`,
);

// WooCommerce with Yoast: the product in an @graph, and the theme's related products as an ItemList of products with offers.
const WOOCOMMERCE = html(
	`<title>Espresso Grinder E65 - Kaffeehaus Shop</title>${ld({
		'@context': 'https://schema.org',
		'@graph': [
			{
				'@type': ['WebPage', 'ItemPage'],
				'@id': 'https://kaffeehaus.example/produkt/e65/',
				url: 'https://kaffeehaus.example/produkt/e65/',
				name: 'Espresso Grinder E65 - Kaffeehaus Shop',
			},
			{ '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 1, item: { '@id': 'https://kaffeehaus.example/', name: 'Home' } }] },
			{
				'@type': 'Product',
				'@id': 'https://kaffeehaus.example/produkt/e65/#product',
				name: 'Espresso Grinder E65',
				offers: [{ '@type': 'Offer', price: '259.00', priceCurrency: 'EUR', availability: 'http://schema.org/InStock', priceValidUntil: '2027-12-31' }],
			},
			{
				'@type': 'ItemList',
				name: 'Related products',
				itemListElement: [
					{
						'@type': 'ListItem',
						position: 1,
						item: { '@type': 'Product', name: 'Tamper 58mm', offers: { '@type': 'Offer', price: '44.99', priceCurrency: 'EUR' } },
					},
					{
						'@type': 'ListItem',
						position: 2,
						item: { '@type': 'Product', name: 'Knock Box', offers: { '@type': 'Offer', price: '29.99', priceCurrency: 'EUR' } },
					},
				],
			},
		],
	})}`,
	`<div class="product"><h1 class="product_title entry-title">Espresso Grinder E65</h1><p class="price"><span class="woocommerce-Price-amount amount">` +
		`<bdi>259,00&nbsp;<span class="woocommerce-Price-currencySymbol">&euro;</span></bdi></span></p>
	<form class="cart" action="https://kaffeehaus.example/produkt/e65/" method="post"><button type="submit" name="add-to-cart" value="65">In den ` +
		`Warenkorb</button></form></div>
	<section class="related products"><h2>Ähnliche Produkte</h2><ul class="products"><li class="product"><a href="?add-to-cart=12" class="button ` +
		`add_to_cart_button">In den Warenkorb</a></li></ul></section>`,
);

// Magento 2 (Luma): the product's microdata item holds the <h1> and the cart form; the related block is items of their own, beside it.
const MAGENTO = html(
	'<title>Driven Backpack | Luma</title>',
	`<div class="columns"><div class="column main" itemscope itemtype="http://schema.org/Product">
		<div class="page-title-wrapper product"><h1 class="page-title"><span class="base" itemprop="name">Driven Backpack</span></h1></div>
		<div class="product-info-price"><div class="price-box price-final_price" data-role="priceBox" data-product-id="14">
		<span class="price-container price-final_price tax weee" itemprop="offers" itemscope itemtype="http://schema.org/Offer">
		<span id="product-price-14" data-price-amount="36" data-price-type="finalPrice" class="price-wrapper "><span class="price">$36.00</span></span>
		<meta itemprop="price" content="36"><meta itemprop="priceCurrency" content="USD"></span></div>
		<div class="stock available" title="Availability"><span>In stock</span></div></div>
		<form data-product-sku="24-WB03" action="https://luma.example/checkout/cart/add/uenc/aHR0c/product/14/" method="post" id="product_addtocart_form">` +
		`<button type="submit" title="Add to Cart" class="action primary tocart">Add to Cart</button></form>
	</div></div>
	<div class="block related"><ol class="products list items product-items">
		<li class="item product product-item"><div class="product-item-info" itemscope itemtype="http://schema.org/Product"><strong class="product name" ` +
		`itemprop="name">Overnight Duffle</strong>
		<div class="price-box" itemprop="offers" itemscope itemtype="http://schema.org/Offer"><meta itemprop="price" content="19.99"><meta ` +
		`itemprop="priceCurrency" content="USD"></div></div></li>
		<li class="item product product-item"><div class="product-item-info" itemscope itemtype="http://schema.org/Product"><strong class="product name" ` +
		`itemprop="name">Wayfarer Messenger Bag</strong>
		<div class="price-box" itemprop="offers" itemscope itemtype="http://schema.org/Offer"><meta itemprop="price" content="45"><meta ` +
		`itemprop="priceCurrency" content="USD"></div></div></li>
	</ol></div>`,
);

// PrestaShop 1.7: the related products ("accessories") come first in the page, each an article with itemscope Product.
const PRESTASHOP = html(
	'<title>Mug The best is yet to come</title><meta property="og:title" content="Mug The best is yet to come">',
	`<section class="product-accessories"><h2>You might also like</h2>
		<article class="product-miniature js-product-miniature" itemscope itemtype="http://schema.org/Product"><h3 class="product-title" itemprop="name">` +
		`Mug Today is a good day</h3>
		<div class="product-price-and-shipping" itemprop="offers" itemscope itemtype="http://schema.org/Offer"><span itemprop="price" content="11.9" ` +
		`class="price">€11.90</span><meta itemprop="priceCurrency" content="EUR"></div></article></section>
	<div id="main" itemscope itemtype="https://schema.org/Product"><meta itemprop="url" ` +
		`content="https://presta.example/home-accessories/6-mug-the-best-is-yet-to-come.html">
		<h1 class="h1" itemprop="name">Mug The best is yet to come</h1>
		<div class="product-prices"><div class="product-price h5" itemprop="offers" itemscope itemtype="https://schema.org/Offer"><link ` +
		`itemprop="availability" href="https://schema.org/InStock"/><meta itemprop="priceCurrency" content="EUR">
		<div class="current-price"><span itemprop="price" content="14.28">€14.28</span></div></div></div>
		<form action="https://presta.example/cart" method="post" id="add-to-cart-or-refresh"><button class="btn btn-primary add-to-cart" ` +
		`data-button-action="add-to-cart" type="submit">Add to cart</button></form></div>`,
);

// BigCommerce (Cornerstone): a JSON-LD Product whose url is the page's, beside another Product block (a bundle upsell) with a lower price.
const BIGCOMMERCE = html(
	`<title>Orbit Terrarium - Large - Plant Shop</title><link rel="canonical" href="https://plants.example/orbit-terrarium-large/">
	` +
		ld({
			'@context': 'https://schema.org/',
			'@type': 'Product',
			name: 'Terrarium care kit',
			url: 'https://plants.example/terrarium-care-kit/',
			offers: { '@type': 'Offer', price: 18, priceCurrency: 'CAD', availability: 'https://schema.org/InStock' },
		}) +
		`
	` +
		ld({
			'@context': 'https://schema.org/',
			'@type': 'Product',
			name: 'Orbit Terrarium - Large',
			url: 'https://plants.example/orbit-terrarium-large/',
			offers: { '@type': 'Offer', price: 229.99, priceCurrency: 'CAD', availability: 'https://schema.org/InStock' },
		}),
	'<h1 class="productView-title">Orbit Terrarium - Large</h1>',
);

describe("readOffer reads this page's product, not the others it shows", () => {
	it('Shopify: the lowest price that can be had (the XL in stock), not a sold-out size; InStock; three offers, two prices', () => {
		expect(readOffer(parseDocument(SHOPIFY))).toEqual({ from: 'json-ld', price: 29, currency: 'USD', availability: 'InStock', prices: 2 });
	});

	it("Shopify: the variant the URL names, with that variant's availability", () => {
		const document = parseDocument(SHOPIFY);
		expect(readOffer(document, { url: 'https://northfold.example/products/merino-beanie?variant=40011' })).toEqual({
			from: 'json-ld',
			price: 25,
			currency: 'USD',
			availability: 'OutOfStock',
			prices: 2,
		});
		expect(readOffer(document, { url: 'https://northfold.example/products/merino-beanie?variant=40013' })).toMatchObject({
			price: 29,
			availability: 'InStock',
		});
		// A variant that is not on the page names nothing: the offer is read as without one.
		expect(readOffer(document, { url: 'https://northfold.example/products/merino-beanie?variant=99999' })).toMatchObject({
			price: 29,
			availability: 'InStock',
		});
	});

	it('WooCommerce with Yoast: the @graph Product at 259 EUR, not the cheapest related product in the ItemList', () => {
		expect(readOffer(parseDocument(WOOCOMMERCE))).toEqual({ from: 'json-ld', price: 259, currency: 'EUR', availability: 'InStock' });
	});

	it('Magento: the item holding the <h1> and the cart form, not the related items beside it', () => {
		// The microdata states no availability: the cart form's enabled button says it.
		expect(readOffer(parseDocument(MAGENTO))).toEqual({ from: 'microdata', price: 36, currency: 'USD', availability: 'InStock' });
	});

	it('PrestaShop: the product whose name is the title, though the accessories come first in the page', () => {
		expect(readOffer(parseDocument(PRESTASHOP))).toEqual({ from: 'microdata', price: 14.28, currency: 'EUR', availability: 'InStock' });
	});

	it("BigCommerce: of two top-level Products, the one whose url is the page's canonical", () => {
		expect(readOffer(parseDocument(BIGCOMMERCE))).toEqual({ from: 'json-ld', price: 229.99, currency: 'CAD', availability: 'InStock' });
		// By the URL it was fetched from too, where the page names no canonical.
		const bare = BIGCOMMERCE.replace(/<link rel="canonical"[^>]*>/, '')
			.replace('<h1 class="productView-title">Orbit Terrarium - Large</h1>', '')
			.replace(/<title>.*<\/title>/, '');
		expect(readOffer(parseDocument(bare), { url: 'https://plants.example/orbit-terrarium-large/?utm_source=feed' })?.price).toBe(229.99);
	});

	it("a product linked as related, similar or an accessory, in JSON-LD or microdata, is never the page's", () => {
		const linked = {
			'@type': 'Product',
			name: 'Lamp',
			offers: { price: 80, priceCurrency: 'EUR' },
			isRelatedTo: { '@type': 'Product', name: 'Bulb', offers: { price: 4, priceCurrency: 'EUR' } },
			isAccessoryOrSparePartFor: [{ '@type': 'Product', offers: { price: 2, priceCurrency: 'EUR' } }],
		};
		expect(readOffer(parseDocument(html(ld(linked), '')))).toEqual({ from: 'json-ld', price: 80, currency: 'EUR' });
		const micro =
			`<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Lamp</span><div itemprop="offers" itemscope ` +
			`itemtype="https://schema.org/Offer"><meta itemprop="price" content="80"></div>
			<div itemprop="isSimilarTo" itemscope itemtype="https://schema.org/Product"><div itemprop="offers" itemscope itemtype="https://schema.org/Offer">` +
			`<meta itemprop="price" content="3"></div></div></div>`;
		expect(readOffer(parseDocument(html('', micro)))).toEqual({ from: 'microdata', price: 80 });
	});

	it('a page whose only products are in a list has no offer from them (a category page)', () => {
		const list = {
			'@type': 'ItemList',
			itemListElement: [
				{ '@type': 'ListItem', item: { '@type': 'Product', offers: { price: 5 } } },
				{ '@type': 'Offer', price: 6 },
			],
		};
		expect(readOffer(parseDocument(html(ld(list), '')))).toBeUndefined();
	});

	it("an Offer whose itemOffered is the page's product counts as its offer; an offer of no product counts as the page's", () => {
		const graph = {
			'@graph': [
				{ '@type': 'Product', '@id': '#p', name: 'Desk' },
				{ '@type': 'Offer', itemOffered: { '@id': '#p' }, price: 310, priceCurrency: 'EUR' },
			],
		};
		expect(readOffer(parseDocument(html(ld(graph), '')))).toEqual({ from: 'json-ld', price: 310, currency: 'EUR' });
	});

	it('explainOffer lists every product with why it was or was not taken', () => {
		const { products, found } = explainOffer(parseDocument(WOOCOMMERCE), { url: 'https://kaffeehaus.example/produkt/e65/' });
		expect(products.map(({ candidate, taken, why }) => [candidate.where, taken, why])).toEqual([
			['script #1 @graph[2] Product', true, "its url is the page's, its name is the page's title, it has offers"],
			['script #1 @graph[3] ItemList.itemListElement[0] ListItem.item Product', false, "another product's (inside ItemList)"],
			['script #1 @graph[3] ItemList.itemListElement[1] ListItem.item Product', false, "another product's (inside ItemList)"],
		]);
		expect(found.map((item) => item.price)).toEqual([259, 44.99, 29.99]);
	});
});

describe('variantOf and isVariant', () => {
	it("reads Shopify's ?variant= and matches an offer by its url, sku or @id", () => {
		expect(variantOf('https://shop.example/products/hat?variant=4242')).toBe('4242');
		expect(variantOf('https://shop.example/products/hat')).toBeUndefined();
		expect(variantOf(undefined)).toBeUndefined();
		const offer = (...keys: string[]) => ({ from: 'json-ld' as const, where: '', written: {}, keys });
		expect(isVariant(offer('https://shop.example/products/hat?variant=4242'), '4242')).toBe(true);
		expect(isVariant(offer('4242'), '4242')).toBe(true);
		expect(isVariant(offer('https://shop.example/products/hat#variant-4242'), '4242')).toBe(true);
		expect(isVariant(offer('https://shop.example/products/hat?variant=14242'), '4242')).toBe(false);
		expect(isVariant(offer('SKU-14242'), '4242')).toBe(false);
	});
});

describe('thisProduct with the same product written twice', () => {
	it("counts a theme's block and a plugin's block for one product as one: the price from one, the availability from the other", () => {
		const theme = { '@type': 'Product', name: 'Desk Lamp Arc', offers: { '@type': 'Offer', price: '89.00', priceCurrency: 'EUR' } };
		const plugin = { '@type': 'Product', name: 'Desk Lamp Arc', offers: { '@type': 'Offer', availability: 'https://schema.org/OutOfStock' } };
		const related = {
			'@type': 'Product',
			name: 'Bulb E27',
			offers: { '@type': 'Offer', price: '4.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
		};
		const page = parseDocument(html(`<title>Desk Lamp Arc | Lights</title>${ld(theme)}${ld(related)}${ld(plugin)}`, '<h1>Desk Lamp Arc</h1>'));
		expect(readOffer(page)).toEqual({ from: 'json-ld', price: 89, currency: 'EUR', availability: 'OutOfStock' });
		expect(explainOffer(page).products.map(({ taken, why }) => [taken, why])).toEqual([
			[true, "its name is the page's title, it has offers"],
			[false, "not the page's: script #1 Product is more so"],
			[true, 'the same product as script #1 Product'],
		]);
	});

	it('takes a fragment @id (#product) as naming a node, not the page; mainEntityOfPage names the page', () => {
		const first = { '@type': 'Product', '@id': '#related', offers: { price: 4, priceCurrency: 'EUR' } };
		const main = { '@type': 'Product', '@id': '#main', mainEntityOfPage: { '@id': 'https://lights.example/arc' }, offers: { price: 89, priceCurrency: 'EUR' } };
		expect(readOffer(parseDocument(html(ld(first) + ld(main), '')), { url: 'https://lights.example/arc' })?.price).toBe(89);
	});
});

describe("thisProduct and products inside the page's product", () => {
	it(
		'a product nested in the page\'s product by a property other than its variants (a theme\'s "related") ' + 'is another product; its variants are its own',
		() => {
			const product = {
				'@type': 'ProductGroup',
				name: 'Trail Shoe',
				hasVariant: [{ '@type': 'Product', offers: { price: 99, priceCurrency: 'EUR', availability: 'InStock' } }],
				relatedProducts: [{ '@type': 'Product', name: 'Socks', offers: { price: 9, priceCurrency: 'EUR', availability: 'InStock' } }],
			};
			expect(readOffer(parseDocument(html(ld(product), '')))).toEqual({ from: 'json-ld', price: 99, currency: 'EUR', availability: 'InStock' });
			const micro =
				`<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Trail Shoe</h1><div itemprop="offers" itemscope ` +
				`itemtype="https://schema.org/Offer"><meta itemprop="price" content="99"></div>
			<div itemprop="crossSell" itemscope itemtype="https://schema.org/Product"><div itemprop="offers" itemscope itemtype="https://schema.org/Offer">` +
				`<meta itemprop="price" content="9"></div></div></div>`;
			expect(readOffer(parseDocument(html('', micro)))).toEqual({ from: 'microdata', price: 99 });
		},
	);

	it(
		"an item nested in the page's product's element with no itemprop is an item of its own, " +
			"not the product's (Magento's cross-sell inside the product column)",
		() => {
			const micro =
				`<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Trail Shoe</h1><div itemprop="offers" itemscope ` +
				`itemtype="https://schema.org/Offer"><meta itemprop="price" content="99"></div>
			<div class="crosssell">` +
				[7, 8]
					.map(
						(price) =>
							`<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Lace ${price}</span><div itemprop="offers" itemscope ` +
							`itemtype="https://schema.org/Offer"><meta itemprop="price" content="${price}"></div></div>`,
					)
					.join('') +
				`</div></div>`;
			const { offer, products } = explainOffer(parseDocument(html('<title>Trail Shoe</title>', micro)));
			expect(offer).toEqual({ from: 'microdata', price: 99 });
			expect(products.map(({ candidate, taken }) => [candidate.where, taken])).toEqual([
				['itemscope #1 Product', true],
				['itemscope #3 Product', false],
				['itemscope #5 Product', false],
			]);
		},
	);
});

describe('readOffer and a variant named by the URL, in microdata', () => {
	it("reads the variant whose url or sku the URL's ?variant= names", () => {
		const variant = (id: number, price: number, availability: string) =>
			`<div itemprop="hasVariant" itemscope itemtype="https://schema.org/Product"><link itemprop="url" href="/products/tee?variant=${id}"><div ` +
			`itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="${price}"><link itemprop="availability" ` +
			`href="https://schema.org/${availability}"></div></div>`;
		const page = parseDocument(
			html(
				'<title>Tee</title>',
				`<div itemscope itemtype="https://schema.org/ProductGroup"><h1 itemprop="name">Tee</h1>` +
					`${variant(1, 19, 'OutOfStock')}${variant(2, 22, 'InStock')}</div>`,
			),
		);
		expect(readOffer(page)).toEqual({ from: 'microdata', price: 22, availability: 'InStock', prices: 2 });
		expect(readOffer(page, { url: 'https://shop.example/products/tee?variant=1' })).toEqual({
			from: 'microdata',
			price: 19,
			availability: 'OutOfStock',
			prices: 2,
		});
	});
});

describe('readOffer and one Product block per size', () => {
	it("counts every block the page names as its own (each named as the page is) as the product's variants, and no other", () => {
		const size = (name: string, price: number, availability: string) =>
			ld({ '@type': 'Product', name, offers: { '@type': 'Offer', price, priceCurrency: 'EUR', availability: `https://schema.org/${availability}` } });
		const page = parseDocument(
			html(
				`<title>Wool Coat | Atelier</title>` +
					`${size('Wool Coat - S', 180, 'OutOfStock')}${size('Wool Coat - L', 195, 'InStock')}${size('Silk Scarf', 45, 'InStock')}`,
				'<h1>Wool Coat</h1>',
			),
		);
		expect(readOffer(page)).toEqual({ from: 'json-ld', price: 195, currency: 'EUR', availability: 'InStock', prices: 2 });
	});

	it('takes a product named as the page over one whose name only holds it ("Wool Coat Hanger")', () => {
		const product = (name: string, price: number) => ld({ '@type': 'Product', name, offers: { '@type': 'Offer', price, priceCurrency: 'EUR' } });
		const page = parseDocument(html(`<title>Wool Coat | Atelier</title>${product('Wool Coat Hanger', 12)}${product('Wool Coat', 180)}`, '<h1>Wool Coat</h1>'));
		expect(readOffer(page)).toEqual({ from: 'json-ld', price: 180, currency: 'EUR' });
	});
});
