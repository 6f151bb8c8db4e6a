/**
 * The words and names a shop page's markup uses for its price and its buy button, in the
 * languages shops write most (its stock words are data: src/domain/product/stock-phrases/). Texts are compared folded (`fold`): lower
 * case, accents off, white space single.
 */

/**
 * Lower case, accents off (`épuisé` → `epuise`), white space single. Kana keep their voicing marks.
 *
 * @example
 * fold('  Épuisé\n') // 'epuise'
 */
export const fold = (text: string): string =>
	// Most texts a page is searched for are ASCII, and have no accents to take off.
	(ASCII.test(text)
		? text
		: text
				.normalize('NFD')
				.replace(/[\u0300-\u036f]/g, '')
				.normalize('NFC')
				.replace(/[\u2018\u2019\u02bc]/g, "'")
	)
		.toLowerCase()
		.replace(/\s+/g, ' ')
		.trim();

const ASCII = /^[\x00-\x7f]*$/;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Scripts written without spaces between words (or with particles glued on, as Korean): a word of theirs is found anywhere. */
export const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * A phrase as a pattern's tokens: spaces and hyphens between its words match any run of
 * them or none (`pre-order` finds "preorder" and "pre order"), `{n}` a number, and a
 * leading `*` the rest of a word (`*n't` finds "isn't", "don't").
 */
function tokens(phrase: string, folded: boolean): string[] {
	const text = folded ? fold(phrase) : phrase;
	const out: string[] = text.startsWith('*') ? ['\\p{L}*'] : [];
	for (const [i, part] of text.slice(out.length).split('{n}').entries()) {
		if (i > 0) out.push('\\d+');
		for (const piece of part.split(/([\s-]+)/)) {
			if (piece === '') continue;
			if (/^[\s-]+$/.test(piece)) out.push('[\\s\\-_]*');
			else out.push(...escape(piece).match(/\\.|[^]/gu)!);
		}
	}
	return out;
}

interface Trie {
	next: Map<string, Trie>;
	end: boolean;
}

/**
 * Phrases as one pattern source with their common beginnings written once (a trie): a
 * thousand stock phrases tried one after another at every place of a text took a tenth of
 * a millisecond a short text; branching on their first letters, a fraction of that. Of two
 * phrases that start alike, the longer is tried first.
 */
function trie(list: readonly string[], folded: boolean): string {
	const root: Trie = { next: new Map(), end: false };
	for (const phrase of list) {
		let node = root;
		for (const token of tokens(phrase, folded)) {
			let child = node.next.get(token);
			if (!child) node.next.set(token, (child = { next: new Map(), end: false }));
			node = child;
		}
		node.end = true;
	}
	const emit = (node: Trie): string => {
		const branches = [...node.next].map(([token, child]) => token + emit(child));
		if (branches.length === 0) return '';
		const body = branches.length === 1 && !node.end ? branches[0]! : `(?:${branches.join('|')})`;
		return node.end ? `${body}?` : body;
	};
	return emit(root);
}

/**
 * One pattern's source for a list of phrases (`tokens`), each found as words of their own (or
 * anywhere, in the scripts of `UNSPACED`). The word boundaries are written once around all the
 * spaced phrases, not around each, and the phrases as a trie: the pattern runs on every
 * short text of a page.
 *
 * @example
 * new RegExp(alternatives(['in stock', 'only {n} left'], true), 'u').test('only 3 left') // true
 */
export function alternatives(list: readonly string[], folded: boolean): string {
	const spaced = list.filter((phrase) => !UNSPACED.test(phrase));
	const unspaced = list.filter((phrase) => UNSPACED.test(phrase));
	const bounded = spaced.length > 0 ? [`(?<![\\p{L}\\p{N}])(?:${trie(spaced, folded)})(?![\\p{L}\\p{N}])`] : [];
	return `(?:${[...bounded, ...(unspaced.length > 0 ? [trie(unspaced, folded)] : [])].join('|')})`;
}

/** A pattern for folded text. */
const phrases = (list: readonly string[]): RegExp => new RegExp(alternatives(list, true), 'u');

/** What a buy button says. */
export const BUY_WORDS = phrases([
	'add to cart',
	'add to bag',
	'add to basket',
	'add to trolley',
	'buy now',
	'buy it now',
	'order now',
	'purchase now',
	'in den warenkorb',
	'in den einkaufswagen',
	'zum warenkorb hinzufügen',
	'jetzt kaufen',
	'in den korb',
	'ajouter au panier',
	'acheter',
	'acheter maintenant',
	'añadir al carrito',
	'añadir a la cesta',
	'agregar al carrito',
	'comprar',
	'comprar ahora',
	'aggiungi al carrello',
	'acquista',
	'acquista ora',
	'in winkelwagen',
	'in winkelmand',
	'toevoegen aan winkelwagen',
	'bestellen',
	'dodaj do koszyka',
	'do koszyka',
	'kup teraz',
	'adicionar ao carrinho',
	'lägg i varukorgen',
	'köp',
	'læg i kurv',
	'legg i handlekurv',
	'sepete ekle',
	'přidat do košíku',
	'do košíku',
	'kosárba',
	'в корзину',
	'купить',
	'додати в кошик',
	'カートに入れる',
	'カートに追加',
	'今すぐ買う',
	'購入する',
	'加入购物车',
	'加入購物車',
	'立即购买',
	'立即購買',
	'장바구니',
	'구매하기',
]);

/** A buy button's class, id or name: `add-to-cart`, `btn-cart`, WebSphere's `productPageAdd2Cart`, Shopify's `name="add"`. */
export const BUY_NAME = new RegExp(
	`add[-_ ]?(to|2)[-_ ]?(cart|bag|basket)|addtocart|buy[-_ ]?(now|button|box)|btn[-_]cart|cart[-_]?(button|btn|submit)|product-form__submit|` +
		`single_add_to_cart|^add$`,
	'i',
);

/** A class, id or `itemprop` that says price. */
export const PRICE_NAME = /price|preis|prix|precio|prezzo|prijs|cena|preço|pris|amount|цена|価格|价格/i;

/** A class or id that says the price is a former or list one: never the price paid now. */
export const STRUCK_NAME = new RegExp(
	`(^|[-_ ])(was|old|before|compare[-_]?at|compare|strike|striked|strikethrough|crossed|rrp|uvp|msrp|list[-_]?price|price[-_]?list|` +
		`original)([-_ ]|$)|old[-_]?price|price[-_]?old|was[-_]?price|price[-_]?was|compare[-_]?at|strike`,
	'i',
);

/** A class that says "regular" price: the former one on a sale, but on some themes (Shopify's) also the only one. */
export const REGULAR_NAME = /regular/i;

/** Words that, right before a price, say it is a former or list one, or no price asked (a saving, a total, "Gifts under $20"). */
const WAS = [
	'was',
	'regular price',
	'reg.',
	'compare at',
	'list price',
	'list',
	'rrp',
	'msrp',
	'uvp',
	'statt',
	'anstatt',
	'bisher',
	'ehemals',
	'vorher',
	'streichpreis',
	'au lieu de',
	'prix barré',
	'prix conseillé',
	'avant',
	'antes',
	'precio anterior',
	'invece di',
	'prezzo consigliato',
	'vorige prijs',
	'zamiast',
	'poprzednia cena',
	'было',
	'старая цена',
	'通常価格',
	'定価',
	'原价',
	// Not a former price but no price asked either: a retail price beside the shop's, a saving, a total, a threshold.
	'retail price',
	'retail',
	'you save',
	'your savings',
	'savings',
	'save',
	'total',
	'subtotal',
	'under',
	'less than',
	'over',
	'orders over',
	'sie sparen',
	'ersparnis',
	'economisez',
	'ahorra',
	'risparmi',
	'prezzo in negozio',
];

/** A folded label that ends with a "was" word: `Was:`, `UVP`, `statt`. */
export const WAS_BEFORE = new RegExp(`${alternatives(WAS, true)}[\\s:.\\-–]*$`, 'u');

/** A price as text writes one right after a "was" word: an optional currency before, the number, an optional currency after. */
const CODE = '(?:EUR|USD|GBP|CHF|PLN|CZK|HUF|SEK|NOK|DKK|RUB|UAH|TRY|JPY|CNY|KRW|INR|CAD|AUD|NZD|BRL|MXN)(?!\\p{L})';
const WRITTEN_PRICE =
	String.raw`[\s:]*(?:[^\p{L}\p{N}\s]{1,3}|US\$|${CODE})?\s?\d+(?:[.,'\u00a0\u202f ]\d{3})*(?:[.,]\d{1,2}|[.,` +
	String.raw`][-–])?(?:\s?(?:[^\p{L}\p{N}\s]{1,3}|${CODE}|руб\.?|zł|kr(?!\p{L})))?`;

/** A "was" word with the price it names, in a text as written: `Was $59.99`, `UVP 59,99 €`, `statt 59,99`. */
export const WAS_PRICE = new RegExp(`${alternatives(WAS, false)}${WRITTEN_PRICE}`, 'giu');

/** A class or id of a block of other products (related, recommended, carousels) or of the page's chrome. */
export const ELSEWHERE_NAME = new RegExp(
	`related|recommend|similar|comparison|carousel|slider|swiper|upsell|up-sell|cross-?sell|also[-_]?(bought|viewed|like)|recently[-_]?viewed|` +
		`you[-_]?may|bought[-_]?together|sponsored|accessories|product[-_]?(list|grid|tiles|slider)|mini[-_]?cart|cart[-_]?drawer|megamenu|mega-menu|` +
		`breadcrumb`,
	'i',
);

/** What the heading of a block of other products says. */
export const OTHERS_HEADING = phrases([
	'recommended products',
	'recommended for you',
	'related products',
	'related items',
	'similar products',
	'similar items',
	'you may also like',
	'you might also like',
	'customers also bought',
	'customers also viewed',
	'customers who bought this item also bought',
	'frequently bought together',
	'recently viewed',
	'more from this collection',
	'ähnliche produkte',
	'ähnliche artikel',
	'das könnte ihnen auch gefallen',
	'das könnte dir auch gefallen',
	'kunden kauften auch',
	'zuletzt angesehen',
	'produits similaires',
	'vous aimerez aussi',
	'vous aimerez peut-être aussi',
	'productos relacionados',
	'productos similares',
	'también te puede interesar',
	'prodotti correlati',
	'prodotti simili',
	'potrebbe interessarti anche',
	'gerelateerde producten',
	'vergelijkbare producten',
	'podobne produkty',
	'polecane produkty',
	'похожие товары',
	'рекомендуемые товары',
	'с этим товаром покупают',
	'関連商品',
	'おすすめ商品',
	'相关商品',
	'猜你喜欢',
	'相關商品',
]);

/** A class, id or `itemprop` that says stock or availability. */
export const STOCK_NAME = /stock|availab|inventory|lager|verfugbar|verfügbar|dispo|existencias|magazzino|voorraad|наличи|在庫/i;
