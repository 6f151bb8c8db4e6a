import { isIsoCode } from './currencies.js';
import { currencyOf, type Found } from './found.js';
import { valueOf, type Markup } from './markup.js';

/**
 * What a page says of the currency it sells in, beside the price: the codes its markup
 * states (`priceCurrency`, `og:price:currency`), its URL and its language.
 */
export interface CurrencySignals {
	/** ISO codes the page's markup states for its product, in the order believed. */
	stated: readonly string[];
	/** The page's URL (`options.url`). */
	url?: string | undefined;
	/** `<html lang>` (`en-US`), then `og:locale` (`en_US`). */
	languages: readonly string[];
}

/** Meta elements that state a price's currency. */
const CURRENCY_METAS = new Set(['og:price:currency', 'product:price:currency', 'pricecurrency']);

/**
 * The currency signals of a page: the ISO codes its product's offers state (`kept`, from any
 * markup), then its `og:price:currency` and `product:price:currency` metas, then any
 * `itemprop="priceCurrency"` (a shop may write one in a `<meta>` of its own, outside any
 * item); its URL; its `<html lang>` and `og:locale`.
 *
 * @example
 * pageCurrencySignals(scanMarkup(document), kept, 'https://shop.example.ca/p/1') // { stated: ['CAD'], url: …, languages: ['en-CA'] }
 */
export function pageCurrencySignals(markup: Markup, kept: readonly Found[], url: string | undefined): CurrencySignals {
	const name = (element: Markup['metas'][number]) => (element.attribs['property'] ?? element.attribs['name'] ?? '').trim().toLowerCase();
	const written = [
		...kept.map((item) => item.currency),
		...markup.metas.filter((element) => CURRENCY_METAS.has(name(element))).map((element) => currencyOf(element.attribs['content'])),
		...markup.itemprops
			.filter((element) => element.attribs['itemprop']!.trim().toLowerCase() === 'pricecurrency')
			.map((element) => currencyOf(valueOf(element).value)),
	];
	const stated = [...new Set(written.filter((code): code is string => code !== undefined && isIsoCode(code)))];
	const locales = markup.metas.filter((element) => name(element) === 'og:locale').map((element) => element.attribs['content'] ?? '');
	const languages = [...(markup.lang ? [markup.lang] : []), ...locales].filter((tag) => /^[a-z]{2,3}([-_][a-z0-9]+)*$/i.test(tag.trim()));
	return { stated, url, languages };
}

/**
 * The currencies a symbol or word written for several stands for: the code read must be
 * one of them. Words are families too: "dollars" are `$`'s, "kronor" and "kroner" `kr`'s.
 */
const FAMILIES: Readonly<Record<string, readonly string[]>> = {
	$: [
		'USD',
		'CAD',
		'AUD',
		'NZD',
		'MXN',
		'SGD',
		'HKD',
		'TWD',
		'ARS',
		'CLP',
		'COP',
		'UYU',
		'BRL',
		'JMD',
		'TTD',
		'BSD',
		'BBD',
		'FJD',
		'NAD',
		'LRD',
		'SRD',
		'GYD',
		'BMD',
		'KYD',
		'XCD',
		'DOP',
		'CUP',
	],
	kr: ['SEK', 'NOK', 'DKK', 'ISK'],
	'¥': ['JPY', 'CNY'],
	Rs: ['INR', 'PKR', 'LKR', 'NPR', 'MUR', 'SCR'],
	Fr: ['CHF', 'XAF', 'XOF', 'XPF'],
	pound: ['GBP', 'EGP', 'LBP', 'SYP', 'SDG', 'SSP', 'GIP', 'FKP', 'SHP'],
	peso: ['ARS', 'MXN', 'CLP', 'COP', 'UYU', 'PHP', 'DOP', 'CUP'],
};
const FAMILY_OF: Readonly<Record<string, string>> = {
	$: '$',
	dollar: '$',
	dollars: '$',
	Dollar: '$',
	Dollars: '$',
	kr: 'kr',
	Kr: 'kr',
	'kr.': 'kr',
	krona: 'kr',
	kronor: 'kr',
	krone: 'kr',
	kroner: 'kr',
	'¥': '¥',
	'￥': '¥',
	'₨': 'Rs',
	Rs: 'Rs',
	'Rs.': 'Rs',
	rupee: 'Rs',
	rupees: 'Rs',
	'Fr.': 'Fr',
	'₣': 'Fr',
	franc: 'Fr',
	francs: 'Fr',
	'£': 'pound',
	'￡': 'pound',
	pound: 'pound',
	pounds: 'pound',
	Pound: 'pound',
	Pounds: 'pound',
	peso: 'peso',
	pesos: 'peso',
	Peso: 'peso',
	Pesos: 'peso',
};
/** The pound a page names no other of is sterling: no other pound is written in words, or as a bare `£`, to a buyer abroad. */
const FALLBACK: Readonly<Record<string, string>> = { pound: 'GBP' };

/**
 * The currency of each country, by its ISO 3166 code as a country-code domain and a
 * language tag's region write it (`uk` as a domain is Great Britain's). Only domains
 * shops use for their country: `.co`, `.io`, `.me`, `.tv` are used as generic ones.
 */
const EURO = 'at be cy de ee es fi fr gr hr ie it lt lu lv mt nl pt si sk'.split(' ');
const COUNTRY: Readonly<Record<string, string>> = {
	...Object.fromEntries(EURO.map((country) => [country, 'EUR'])),
	us: 'USD',
	ca: 'CAD',
	au: 'AUD',
	nz: 'NZD',
	mx: 'MXN',
	sg: 'SGD',
	hk: 'HKD',
	tw: 'TWD',
	ar: 'ARS',
	cl: 'CLP',
	uy: 'UYU',
	br: 'BRL',
	gb: 'GBP',
	uk: 'GBP',
	se: 'SEK',
	no: 'NOK',
	dk: 'DKK',
	is: 'ISK',
	jp: 'JPY',
	cn: 'CNY',
	in: 'INR',
	pk: 'PKR',
	lk: 'LKR',
	np: 'NPR',
	ch: 'CHF',
	li: 'CHF',
	pl: 'PLN',
	cz: 'CZK',
	hu: 'HUF',
	ro: 'RON',
	bg: 'BGN',
	rs: 'RSD',
	ru: 'RUB',
	ua: 'UAH',
	by: 'BYN',
	kz: 'KZT',
	tr: 'TRY',
	il: 'ILS',
	kr: 'KRW',
	th: 'THB',
	vn: 'VND',
	id: 'IDR',
	my: 'MYR',
	ph: 'PHP',
	za: 'ZAR',
	ng: 'NGN',
	ke: 'KES',
	eg: 'EGP',
	ae: 'AED',
	sa: 'SAR',
	pe: 'PEN',
	do: 'DOP',
	jm: 'JMD',
	tt: 'TTD',
	cu: 'CUP',
	lb: 'LBP',
	sy: 'SYP',
	sd: 'SDG',
	gi: 'GIP',
	fk: 'FKP',
	ss: 'SSP',
	ec: 'USD',
	sv: 'USD',
	pr: 'USD',
};
/** Country domains shops elsewhere use as generic ones: theirs only under a second level the country keeps (`.com.co`, not `.co`). */
const SECOND_LEVEL: Readonly<Record<string, string>> = { co: 'COP', sh: 'SHP' };
const KEPT_SECOND = new Set(['com', 'net', 'org', 'edu', 'gov', 'nom']);
/** Languages written in one country's currency only: a tag with no region still says it (`sv` → SEK). */
const LANGUAGE: Readonly<Record<string, string>> = {
	sv: 'SEK',
	da: 'DKK',
	nb: 'NOK',
	nn: 'NOK',
	no: 'NOK',
	is: 'ISK',
	ja: 'JPY',
	pl: 'PLN',
	cs: 'CZK',
	hu: 'HUF',
	uk: 'UAH',
	bg: 'BGN',
	he: 'ILS',
	ko: 'KRW',
	th: 'THB',
	vi: 'VND',
	tr: 'TRY',
};

/**
 * The ISO 4217 code of a price's currency as the page names it, where the price wrote a
 * symbol several currencies share (`$`, `kr`, `¥`, `Rs`, `£`) or wrote none: from the page's own
 * signals, the first that names a currency the symbol can stand for:
 *
 * 1. a code the page's markup states for its product (`priceCurrency`, `og:price:currency`);
 * 2. its URL's country domain (`.ca` CAD, `.com.au` AUD, `.se` SEK, `.de` EUR, `.com.eg` EGP);
 * 3. its language's region (`<html lang="en-CA">`, `og:locale` `es_MX`), or a language
 *    written in one country's currency only (`sv` SEK, `ja` JPY);
 * 4. `$` (or "dollars") on a page in English (or of no stated language) with no country
 *    named: USD; `£` or "pounds" that no signal names another pound for: GBP.
 *
 * A code is kept as it is; a symbol or word nothing decides is no currency: undefined.
 *
 * @example
 * currencyFromPage('$', { stated: [], url: 'https://shop.example.ca/p/1', languages: [] }) // 'CAD'
 * currencyFromPage('kr', { stated: [], languages: ['sv'] }) // 'SEK'
 * currencyFromPage('$', { stated: [], languages: ['en'] }) // 'USD'
 * currencyFromPage('£', { stated: [], url: 'https://shop.example.com.eg/p/1', languages: [] }) // 'EGP'
 * currencyFromPage('£', { stated: [], url: 'https://shop.example.com/p/1', languages: [] }) // 'GBP'
 * currencyFromPage('kr', { stated: [], languages: ['en'] }) // undefined: no code, and nothing says which
 * currencyFromPage(undefined, { stated: [], url: 'https://sklep.example.pl/p/1', languages: [] }) // 'PLN'
 */
export function currencyFromPage(written: string | undefined, signals: CurrencySignals): string | undefined {
	const code = currencyNamed(written, signals)?.code ?? written;
	return code !== undefined && isIsoCode(code) ? code : undefined;
}

/**
 * What `currencyFromPage` decides and why, where it names a code the price did not write:
 * undefined where the currency stays as written.
 *
 * @example
 * currencyNamed('$', { stated: [], url: 'https://shop.example.ca/p/1', languages: [] }) // { code: 'CAD', why: 'the domain .ca' }
 */
export function currencyNamed(written: string | undefined, signals: CurrencySignals): { code: string; why: string } | undefined {
	if (written !== undefined && isIsoCode(written)) return undefined;
	const name = written === undefined ? undefined : FAMILY_OF[written];
	const family = name === undefined ? undefined : FAMILIES[name];
	// A symbol of one currency the parser did not map, or a code that is none: nothing here can say better.
	if (written !== undefined && family === undefined) return undefined;
	const fits = (code: string | undefined): code is string => code !== undefined && (family === undefined || family.includes(code));
	const stated = signals.stated.find(fits);
	if (stated) return { code: stated, why: 'the code the markup states' };
	const domain = countryOfUrl(signals.url);
	if (fits(domain?.code)) return { code: domain.code, why: `the domain .${domain.tld}` };
	for (const tag of signals.languages) {
		const code = languageCurrency(tag);
		if (fits(code)) return { code, why: `the language ${tag}` };
	}
	const english = signals.languages.length === 0 || /^en\b/i.test(signals.languages[0]!);
	const noCountry = domain === undefined && signals.languages.every((tag) => languageCurrency(tag) === undefined);
	if (name === '$' && english && noCountry) return { code: 'USD', why: `a bare ${written} on a page in English naming no country` };
	const fallback = name === undefined ? undefined : FALLBACK[name];
	return fallback === undefined ? undefined : { code: fallback, why: `${written} on a page that names no other pound` };
}

/** The currency of a URL's country-code domain (`shop.example.com.au` → AUD), or undefined. */
function countryOfUrl(url: string | undefined): { code: string; tld: string } | undefined {
	if (url === undefined) return undefined;
	let host: string;
	try {
		host = new URL(url).hostname;
	} catch {
		return undefined;
	}
	const labels = host.toLowerCase().split('.');
	const tld = labels.at(-1)!;
	const second = SECOND_LEVEL[tld] !== undefined && labels.length > 2 && KEPT_SECOND.has(labels.at(-2)!) ? SECOND_LEVEL[tld] : undefined;
	if (second !== undefined) return { code: second, tld: `${labels.at(-2)}.${tld}` };
	const code = COUNTRY[tld];
	return code === undefined ? undefined : { code, tld };
}

/** The currency a language tag names: its region's (`en-CA`, `es_MX`), else the language's own where only one country writes it. */
function languageCurrency(tag: string): string | undefined {
	const [language, region] = tag.trim().toLowerCase().split(/[-_]/);
	if (region !== undefined && /^[a-z]{2}$/.test(region)) return COUNTRY[region === 'uk' ? 'gb' : region];
	return LANGUAGE[language ?? ''];
}
