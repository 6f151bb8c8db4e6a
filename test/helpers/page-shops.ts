/**
 * Product pages without structured data, shaped like real shops' (markup cut down, class
 * names and nesting as the shops write them): no JSON-LD, no microdata, no Open Graph
 * price. Each with the offer a person reads on it.
 */
export interface ShopPage {
	html: string;
	offer: { price?: number; currency?: string; availability?: string } | undefined;
}

const page = (body: string, lang = 'en'): string =>
	`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Shop</title></head><body>${body}</body></html>`;

/** An Amazon-like page: the price split in parts with a screen-reader copy, a struck list price, a carousel of other products' prices. */
const amazon = page(
	`
<header id="navbar"><a id="nav-cart" href="/cart">Cart <span class="nav-cart-count">0</span></a><div class="nav-deal">Today's deals from $5.00</div>` +
		`</header>
<div id="dp-container"><div id="centerCol">
  <h1 id="title" class="a-size-large"><span id="productTitle">Stainless Steel Electric Kettle, 1.7 L</span></h1>
  <div id="corePriceDisplay_desktop_feature_div">
    <span class="a-price aok-align-center priceToPay"><span class="a-offscreen">$29.99</span><span aria-hidden="true"><span class="a-price-symbol">` +
		`$</span><span class="a-price-whole">29<span class="a-price-decimal">.</span></span><span class="a-price-fraction">99</span></span></span>
    <span class="a-size-small">List Price: <span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">$39.99</span><span ` +
		`aria-hidden="true">$39.99</span></span></span>
  </div>
</div>
<div id="rightCol"><div id="buybox">
  <div id="availability"><span class="a-size-medium a-color-success">In Stock</span></div>
  <span class="a-button a-button-primary"><input id="add-to-cart-button" name="submit.add-to-cart" type="submit" value="Add to Cart" ` +
		`class="a-button-input"></span>
  <span class="a-button"><input id="buy-now-button" name="submit.buy-now" type="submit" value="Buy Now" class="a-button-input"></span>
</div></div></div>
<div id="sims-consolidated-1_feature_div"><div class="a-carousel-container"><h2>Customers who viewed this item also viewed</h2>
  <ol class="a-carousel"><li><a href="/dp/B1">Kettle descaler</a><span class="a-price"><span class="a-offscreen">$9.99</span></span></li><li><a ` +
		`href="/dp/B2">Tea infuser</a><span class="a-price"><span class="a-offscreen">$4.49</span></span></li></ol>
</div></div>
<footer id="navFooter"><a href="/gift">Gift cards from $10</a></footer>`,
);

/** Amazon's older layout: #priceblock_ourprice in a table after a struck list price, a savings line, and no buy button as the item is unavailable. */
const amazonClassic = page(
	`
<div id="centerCol"><div id="titleSection"><h1 id="title"><span id="productTitle">Hiking Socks, 3 Pairs</span></h1></div>
<div id="price"><table class="a-lineitem">
  <tr><td class="a-color-secondary">List Price:</td><td><span class="priceBlockStrikePriceString a-text-strike">$34.99</span></td></tr>
  <tr><td class="a-color-secondary">Price:</td><td><span id="priceblock_ourprice" class="a-size-medium a-color-price priceBlockBuyingPriceString">` +
		`$24.99</span></td></tr>
  <tr><td class="a-color-secondary">You Save:</td><td class="a-span12 a-color-price priceBlockSavingsString">$10.00 (29%)</td></tr>
</table></div>
<div id="availability" class="a-section"><span class="a-size-medium a-color-price">Currently unavailable.</span><br>We don't know when or if this item ` +
		`will be back in stock.</div>
</div>`,
);

/** A German shop: UVP struck by its class, a header cart total, related products with their own prices. */
const german = page(
	`
<header class="site-header"><a class="cart" href="/warenkorb">Warenkorb <span class="cart-total">0,00 €</span></a></header>
<main><div class="product-detail">
  <div class="gallery"><img src="/m.jpg" alt=""></div>
  <div class="product-info">
    <h1 class="product-name">Kaffeemühle Classic</h1>
    <div class="preis"><span class="uvp">UVP 89,99 €</span> <span class="aktuell">69,99 €</span></div>
    <p class="hinweis">inkl. MwSt., zzgl. Versand</p>
    <form action="/warenkorb/add" method="post"><input type="number" name="menge" value="1"><button class="btn btn-primary" type="submit">In den ` +
		`Warenkorb</button></form>
  </div>
</div>
<section class="related-products"><h2>Das könnte Ihnen auch gefallen</h2>
  <div class="product-tile"><a href="/p/2">Filter</a><span class="preis">12,99 €</span><button class="btn">In den Warenkorb</button></div>
  <div class="product-tile"><a href="/p/3">Bohnen</a><span class="preis">8,49 €</span></div>
</section></main>`,
	'de',
);

/** A French shop, sold out: the buy button disabled, "Rupture de stock" beside it. */
const frenchSoldOut = page(
	`
<nav class="menu"><a href="/promo">Promos dès 9,90 €</a></nav>
<div id="produit">
  <h1>Lampe de bureau Atelier</h1>
  <p class="prix">Prix : <span>45,00 €</span></p>
  <div class="achat"><p class="etat">Rupture de stock</p><button class="ajout-panier" disabled>Ajouter au panier</button></div>
</div>`,
	'fr',
);

/** A Spanish shop: was and now in one text. */
const spanish = page(
	`
<div class="ficha">
  <h1 class="titulo">Mochila urbana 20 L</h1>
  <div class="precio">Antes 59,99 € Ahora 39,99 €</div>
  <a class="boton-comprar" href="/carrito/add/77">Añadir al carrito</a>
</div>
<div class="productos-similares carousel"><div class="item"><span class="precio">24,95 €</span></div></div>`,
	'es',
);

/** An Italian shop on a Shopify-like theme, sold out: only a "regular" price, the button disabled and saying "Esaurito". */
const italianSoldOut = page(
	`
<main id="MainContent"><section class="product">
  <h1 class="product__title">Moka Express 6 tazze</h1>
  <div class="price price--sold-out"><div class="price__regular"><span class="visually-hidden">Prezzo di listino</span><span class="price-item ` +
		`price-item--regular">€ 120,00</span></div></div>
  <form method="post" action="/cart/add"><button type="submit" name="add" class="product-form__submit button" disabled><span>Esaurito</span></button>` +
		`</form>
</section></main>`,
	'it',
);

/** A Shopify (Dawn theme) page on sale: both the regular and the sale blocks are in the page, the former price in <s>, visually hidden labels. */
const dawnSale = page(
	`
<main id="MainContent"><section class="product">
  <div class="product__title"><h1>Linen Shirt</h1></div>
  <div class="price price--on-sale"><div class="price__container">
    <div class="price__regular"><span class="visually-hidden visually-hidden--inline">Regular price</span><span class="price-item price-item--regular">` +
		`$30.00 USD</span></div>
    <div class="price__sale"><span class="visually-hidden visually-hidden--inline">Regular price</span><span><s class="price-item price-item--regular">` +
		`$30.00 USD</s></span><span class="visually-hidden visually-hidden--inline">Sale price</span><span class="price-item price-item--sale ` +
		`price-item--last">$20.00 USD</span></div>
  </div><span class="badge price__badge-sale">Sale</span></div>
  <form method="post" action="/cart/add" class="form"><button type="submit" name="add" class="product-form__submit button button--full-width"><span>Add ` +
		`to cart</span></button></form>
</section>
<div class="product-recommendations"><ul><li><span class="price-item price-item--regular">$12.00 USD</span></li></ul></div></main>`,
);

/** A Dutch shop: the stock line beside an enabled button says it cannot be had. */
const dutch = page(
	`
<div class="product-page">
  <h1>Fietsbel chroom</h1>
  <span class="product-prijs">€ 12,95</span>
  <form class="bestel"><p class="levering">Niet op voorraad</p><button class="knop">In winkelwagen</button></form>
</div>`,
	'nl',
);

/** A Japanese shop: the price in a sentence with its label and tax note, recommendations below. */
const japanese = page(
	`
<div class="item-detail">
  <h1 class="item-name">電気ケトル 1.0L</h1>
  <p class="item-price">価格：<span class="num">3,980円</span>（税込）</p>
  <button class="cart-btn" type="button">カートに入れる</button>
</div>
<div class="recommend"><p>おすすめ商品</p><ul><li><span class="item-price">1,200円</span></li></ul></div>`,
	'ja',
);

/** A Russian shop with no buy button: the stock note says it. */
const russian = page(
	`
<div class="card">
  <h1>Чайник электрический</h1>
  <div class="product-price">2 490 ₽</div>
  <div class="stock-status">Нет в наличии</div>
</div>`,
	'ru',
);

/** A Polish shop: the old price in <del> after the new one. */
const polish = page(
	`
<div class="produkt">
  <h1>Czajnik stalowy</h1>
  <div class="ceny"><span class="cena">129,00 zł</span> <del>159,00 zł</del></div>
  <a class="btn btn-koszyk" href="/koszyk/dodaj/5">Dodaj do koszyka</a>
</div>`,
	'pl',
);

/** A WooCommerce page on sale: <del> and <ins>, and related products with prices and buttons of their own. */
const woo = page(
	`
<div id="product-12" class="product type-product">
  <div class="summary entry-summary">
    <h1 class="product_title entry-title">Canvas Tote</h1>
    <p class="price"><del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>` +
		`59.99</bdi></span></del> <ins><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>` +
		`39.99</bdi></span></ins></p>
    <form class="cart" method="post"><div class="quantity"><input type="number" class="qty" name="quantity" value="1"></div><button type="submit" ` +
		`name="add-to-cart" value="12" class="single_add_to_cart_button button alt">Add to cart</button></form>
  </div>
  <section class="related products"><h2>Related products</h2><ul class="products">
    <li class="product"><h2 class="woocommerce-loop-product__title">Mug</h2><span class="price"><span class="woocommerce-Price-amount amount"><bdi>` +
		`<span class="woocommerce-Price-currencySymbol">$</span>12.00</bdi></span></span><a href="?add-to-cart=13" class="button add_to_cart_button">Add ` +
		`to cart</a></li>
  </ul></section>
</div>`,
);

/** An English page that writes "Was … Now …" in one element. */
const wasNow = page(`
<div class="pdp"><h1>Rain Jacket</h1><div class="product-price">Was $89.00 Now $59.00</div><button class="btn-add">Add to bag</button></div>`);

/** A page with no price at all: a blog post about kettles. */
const blog = page(`<article><h1>Choosing a kettle</h1><p>Look for a 1.7 litre one with an auto shut-off.</p></article>`);

export const SHOP_PAGES: Record<string, ShopPage> = {
	amazon: { html: amazon, offer: { price: 29.99, currency: '$', availability: 'InStock' } },
	'amazon-classic': { html: amazonClassic, offer: { price: 24.99, currency: '$', availability: 'OutOfStock' } },
	german: { html: german, offer: { price: 69.99, currency: 'EUR', availability: 'InStock' } },
	'french-sold-out': { html: frenchSoldOut, offer: { price: 45, currency: 'EUR', availability: 'OutOfStock' } },
	spanish: { html: spanish, offer: { price: 39.99, currency: 'EUR', availability: 'InStock' } },
	'italian-sold-out': { html: italianSoldOut, offer: { price: 120, currency: 'EUR', availability: 'SoldOut' } },
	'dawn-sale': { html: dawnSale, offer: { price: 20, currency: 'USD', availability: 'InStock' } },
	dutch: { html: dutch, offer: { price: 12.95, currency: 'EUR', availability: 'OutOfStock' } },
	japanese: { html: japanese, offer: { price: 3980, currency: 'JPY', availability: 'InStock' } },
	russian: { html: russian, offer: { price: 2490, currency: 'RUB', availability: 'OutOfStock' } },
	polish: { html: polish, offer: { price: 129, currency: 'PLN', availability: 'InStock' } },
	woo: { html: woo, offer: { price: 39.99, currency: '$', availability: 'InStock' } },
	'was-now': { html: wasNow, offer: { price: 59, currency: '$', availability: 'InStock' } },
	blog: { html: blog, offer: undefined },
};
