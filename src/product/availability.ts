import { AVAILABILITIES, type Availability } from './types.js';

/** The short names squeezed (`instock`), so `in_stock`, `In Stock` and `INSTOCK` find `InStock`. */
const SHORT = new Map<string, Availability>(AVAILABILITIES.map((name) => [name.toLowerCase(), name]));

/**
 * Shop words, tried in this order on the folded text (lower case, no accents, single spaces):
 * the narrower states first, so "Only 3 left in stock" is LimitedAvailability and "Pre-order,
 * in stock in May" PreOrder, and every negation before the word it negates ("nicht
 * lieferbar" before "lieferbar", "not available" before "available"). Words that say
 * "sold out" give SoldOut, as the short name `sold_out` does; words that say "not in stock"
 * give OutOfStock.
 */
const WORDS: readonly [RegExp, Availability][] = [
	[/\b(only|just) \d+ (left|remaining)\b|\b(few|low stock|limited (stock|availability|quantity))\b|\b(nur noch|noch) \d+\b|\bplus que \d+\b|\bquedan? \d+\b|\bsolo \d+\b|\bultim[ie] \d+\b/, 'LimitedAvailability'],
	[/\bdiscontinued\b|\bno longer (available|sold|made)\b|\bnicht mehr (erhaltlich|lieferbar|verfugbar)\b|\bfin de serie\b|\bdescatalogado\b|\bfuori produzione\b/, 'Discontinued'],
	[/\bpre ?orders?\b|\bvorbestell|\bprecommande\b|\bpreventa\b|\bpreordine\b|\bprenota/, 'PreOrder'],
	[/\bback ?order|\bavailable for order\b|\bnachbestellt\b|\ben reapprovisionnement\b/, 'BackOrder'],
	[/\bsold ?out\b|\bausverkauft\b|\bepuise\b|\bagotad[oa]s?\b|\besaurit[oa]\b/, 'SoldOut'],
	[/\bout of stock\b|\boos\b|\bnot (in stock|available)\b|\b(currently )?unavailable\b|\bno stock\b|\b0 (in stock|auf lager|en stock)\b|\bnicht (lieferbar|vorratig|verfugbar|auf lager)\b|\bnicht mehr auf lager\b|\brupture( de stock)?\b|\b(pas|plus) (en stock|disponible)\b|\bindisponible\b|\bsin (stock|existencias)\b|\bno disponible\b|\bnon disponibile\b|\bsenza scorte\b/, 'OutOfStock'],
	// Cyrillic, Polish, Czech, Nordic and Dutch words: `\b` knows only ASCII letters, so the folded text's spaces bound them.
	[/(^| )(нет|немає|немае) (в|у) (наличии|наявност[іи])( |$)|(^| )нет на складе( |$)|(^| )(niedostepny|niedostepna|brak w magazynie|brak towaru)( |$)|(^| )(neni skladem|vyprodano)( |$)|(^| )(niet op voorraad|uitverkocht)( |$)|(^| )(ej i lager|slut i lager|ikke pa lager|udsolgt|utsolgt)( |$)|在庫(切れ|なし)|品切れ|売り切れ|缺货|无货|售罄|缺貨|품절/, 'OutOfStock'],
	[/(^| )(в наличии|есть в наличии|є в наявност[іи]|в наявност[іи]|на складе)( |$)|(^| )(dostepny|dostepna|na stanie|w magazynie)( |$)|(^| )skladem( |$)|(^| )op voorraad( |$)|(^| )(i lager|pa lager)( |$)|在庫あり|有货|现货|有貨|現貨|재고 있음/, 'InStock'],
	[/\bin stock\b|\bauf lager\b|\bvorratig\b|\blieferbar\b|\bverfugbar\b|\ben stock\b|\ben existencia\b|\bdisponibles?\b|\bdisponibil[ei]\b|\bavailable\b|\bin magazzino\b/, 'InStock'],
];

/**
 * The schema.org availability `value` names: a schema.org URL (`https://schema.org/InStock`,
 * `schema:InStock`), a short name in any case or spelling (`instock`, `in_stock`, `OutOfStock`),
 * or a shop's words ("Sold out", "oos", "Ausverkauft", "Only 3 left"). Undefined when the
 * text says none of these.
 *
 * @example
 * availabilityOf('http://schema.org/InStock') // 'InStock'
 * availabilityOf('Nicht lieferbar') // 'OutOfStock'
 * availabilityOf('Ships in 3 days') // undefined
 */
export function availabilityOf(value: string): Availability | undefined {
	const bare = value.trim().replace(/^https?:\/\/(www\.)?schema\.org\/|^schema:/i, '');
	const short = SHORT.get(bare.toLowerCase().replace(/[\s_-]+/g, ''));
	if (short) return short;
	const folded = fold(bare);
	if (folded === '') return undefined;
	return WORDS.find(([words]) => words.test(folded))?.[1];
}

/** Lower case, accents off (`vorrätig` → `vorratig`; Hangul and kana composed again), punctuation to spaces, spaces single. */
const fold = (text: string): string =>
	text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.normalize('NFC')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
