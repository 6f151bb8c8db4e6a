/**
 * The currencies the price parser recognises in text: ISO 4217 codes, and the symbols and
 * words shops write. A symbol that names one currency maps to its code; one shared by
 * several currencies (`$`, `kr`, `¥`, `Rs`, `£`) maps to undefined and is reported as written.
 */

// The ISO 4217 codes of currencies (as of 2025: VED, ZWG and XCG are the newest; HRK and
// CUC, withdrawn, are still quoted), without the funds, metals and testing codes no shop
// charges in (BOV, XAU, XTS, …), plus the pre-euro ones old pages still quote. The one
// list of what a currency is: a code that is not here is no currency (found.ts).
const ISO_CODES = new Set(
	(
		'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD ' +
		'CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD ' +
		'GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT ' +
		'LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD ' +
		'OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN ' +
		'SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ' +
		'ZAR ZMW ZWG ZWL ATS BEF DEM ESP FIM FRF GRD IEP ITL NLG PTE'
	).split(' '),
);

/**
 * Withdrawn ISO 4217 codes that shops still write for the currency that replaced them
 * (`RUR` for the rouble since 1998): the amount is in today's currency, so the code is
 * today's. The pre-euro codes are not here: an amount in DEM is not one in EUR.
 */
export const WITHDRAWN: Readonly<Record<string, string>> = {
	RUR: 'RUB',
	BYR: 'BYN',
	BYB: 'BYN',
	TRL: 'TRY',
	ROL: 'RON',
	GHC: 'GHS',
	MZM: 'MZN',
	ZMK: 'ZMW',
	MRO: 'MRU',
	STD: 'STN',
	VEF: 'VES',
	VEB: 'VES',
	AZM: 'AZN',
	TMM: 'TMT',
	SDD: 'SDG',
	CSD: 'RSD',
	MGF: 'MGA',
	UAK: 'UAH',
};

// Codes that are also everyday words (ALL, TOP, CUP, TRY) are matched in capitals only;
// these common ones are matched in lower case too ("140,00 pln").
const LOWER_CASE_CODES = new Set(
	'eur usd gbp pln chf nok sek dkk czk huf ron bgn rub uah inr brl aud cad nzd jpy cny sgd hkd mxn zar aed sar mkd isk'.split(' '),
);

// Symbols and words that name one currency, separated by spaces (`_` stands for a space
// inside one). Spellings are listed as shops write them:
// matching is case-sensitive, because `Ft` is a forint and `ft` a foot, `KM` a mark and `km` a distance.
const SYMBOLS: Record<string, string> = {
	EUR: '€ euro Euro EURO euros Euros',
	GBP: 'stg sterling',
	USD: 'US$ US_$ U$S',
	PLN: 'zł Zł ZŁ zl',
	INR: '₹',
	BRL: 'R$',
	AUD: 'A$ AU$ AU_$',
	CAD: 'C$ CA$ CAN$ CAD$',
	NZD: 'NZ$',
	HKD: 'HK$',
	SGD: 'S$',
	TWD: 'NT$',
	MXN: 'MX$',
	DOP: 'RD$',
	JMD: 'J$',
	TTD: 'TT$',
	BZD: 'BZ$',
	CUC: 'CUC$',
	MOP: 'MOP$',
	ZWL: 'Z$',
	TOP: 'T$',
	UYU: '$U',
	RUB: '₽ руб руб. рублей рубля рубль Руб. Р р. р Rbl',
	UAH: '₴ грн грн. hrn',
	CZK: 'Kč',
	HUF: 'Ft',
	RON: 'lei Lei LEI',
	BGN: 'лв лв.',
	HRK: 'kn',
	RSD: 'Dinara din. дин дин. Дин',
	ILS: '₪ ש"ח ש\'ח ש״ח ش.ج nis NIS',
	KRW: '₩ 원',
	JPY: '円 yen',
	CNY: '元 人民币 圆 圓 yuan',
	VND: '₫ đ VNĐ',
	THB: '฿ บาท',
	IDR: 'Rp',
	MYR: 'RM',
	TRY: '₺ TL',
	PHP: '₱',
	NGN: '₦',
	CRC: '₡',
	LAK: '₭',
	MNT: '₮',
	AZN: '₼',
	BDT: '৳',
	AMD: '֏',
	AFN: '؋',
	GEL: '₾ ლარი lari',
	KZT: '₸ тг',
	ALL: 'Lek',
	BAM: 'KM',
	KHR: '៛',
	BIF: 'FBu',
	DJF: 'Fdj',
	ERN: 'Nfk ናቕፋ',
	GHS: 'GH₵ ₵',
	KWD: 'KD دينار_كويتي د.ك',
	BHD: 'BD .د.ب',
	LYD: 'LD د.ل ل.د',
	MWK: 'MK',
	MVR: 'Rf',
	MRU: 'UM',
	PAB: 'B/.',
	PEN: 'S/.',
	STN: 'Db',
	TZS: 'TSh',
	UGX: 'USh',
	KES: 'KSh KShs',
	TND: 'DT د.ت',
	VUV: 'VT',
	ZMW: 'ZK',
	GNF: 'FG',
	BTN: 'Nu.',
	JOD: 'دينار_أردني د.أ د.ا',
	OMR: 'ر.ع',
	QAR: 'ر.ق',
	SAR: 'ر.س',
	AED: 'د.إ',
	EGP: 'ج.م E£',
	SYP: 'ل.س',
	LBP: 'ل.ل',
	IQD: 'د.ع ع.د',
	YER: 'ر.ي',
	UZS: "so'm",
	LKR: 'ரூ රු',
	CHF: 'SFr. SFr',
	MKD: 'ден ДЕН',
	MMK: 'Ks',
	GYD: 'GY$ G$',
	BOB: '$b',
	RWF: 'R₣ FRw',
	ETB: 'ብር',
	MAD: 'د.م',
	DZD: 'د.ج دج',
	SDG: 'ج.س ج.س.',
	CVE: 'Esc',
};

// Written the same for several currencies: reported as written, for the page's signals to name (domain/product/currency-signals.ts).
// `£` is sterling's and also the Egyptian, Lebanese, Syrian, Sudanese, Gibraltar, Falklands and Saint Helena pound's.
const AMBIGUOUS = (
	'$ £ ￡ ¥ ￥ kr Kr kr. ₤ ₨ Rs Rs. ﷼ ƒ Br Bs CFA FCFA ₣ Fr. ₶ ₿ Ƀ BTC र تومان ریال ريال جنيه درهم دينار Dh Dhs pound pounds Pound Pounds franc francs ' +
	'dollar dollars Dollar Dollars peso pesos Peso Pesos krona kronor krone kroner rupee rupees'
).split(' ');

// Currencies quoted with three decimals: there "1.500" is one and a half.
const THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

const BY_SYMBOL = new Map<string, string | undefined>();
for (const [code, symbols] of Object.entries(SYMBOLS)) for (const symbol of symbols.split(' ')) BY_SYMBOL.set(symbol.replaceAll('_', ' '), code);
for (const symbol of AMBIGUOUS) BY_SYMBOL.set(symbol, undefined);
for (const [withdrawn, code] of Object.entries(WITHDRAWN)) if (!ISO_CODES.has(withdrawn)) BY_SYMBOL.set(withdrawn, code);

// Tokens by their first character, longest first, so a scan tries only the few that can start there.
const BY_FIRST = new Map<string, string[]>();
for (const token of [...BY_SYMBOL.keys(), ...ISO_CODES, ...LOWER_CASE_CODES].sort((a, b) => b.length - a.length)) {
	const first = token[0]!;
	BY_FIRST.set(first, [...(BY_FIRST.get(first) ?? []), token]);
}
const LETTER = /\p{L}/u;

/** Whether a token at this place stands as a word of its own where its edge is a letter. */
function bounded(text: string, start: number, token: string): boolean {
	const end = start + token.length;
	if (LETTER.test(token[0]!) && start > 0 && LETTER.test(text[start - 1]!)) return false;
	return !(LETTER.test(token.at(-1)!) && end < text.length && LETTER.test(text[end]!));
}

/** A currency found in a text: where, as written, and its code when the writing names one. */
export interface CurrencyMatch {
	start: number;
	end: number;
	written: string;
	code?: string;
	/** 3 for an ISO code, 2 for a symbol naming one currency, 1 for an ambiguous one. */
	rank: number;
}

/**
 * The ISO 4217 code a written currency names, or undefined when it names none or several.
 *
 * @example
 * currencyCode('zł') // 'PLN'
 * currencyCode('pln') // 'PLN'
 * currencyCode('kr') // undefined
 */
export function currencyCode(written: string): string | undefined {
	if (ISO_CODES.has(written)) return WITHDRAWN[written] ?? written;
	if (LOWER_CASE_CODES.has(written)) return written.toUpperCase();
	return BY_SYMBOL.get(written);
}

/**
 * Whether a text is an ISO 4217 code in use (or a pre-euro one): `USD` is, `UAN` and `$` are not.
 *
 * @example
 * isIsoCode('UAH') // true
 */
export const isIsoCode = (text: string): boolean => ISO_CODES.has(text);

/**
 * Whether a text is a currency as shops write it: an ISO 4217 code, or a symbol or word of
 * the lists above (`€`, `zł`, `$`, `kr`).
 *
 * @example
 * isCurrencyWritten('zł') // true
 * isCurrencyWritten('EUR\x1b[2J') // false
 */
export const isCurrencyWritten = (text: string): boolean => ISO_CODES.has(text) || LOWER_CASE_CODES.has(text) || BY_SYMBOL.has(text);

/** How a parsed price reports a currency: its code when unambiguous, else as written. */
export const currencyName = (match: CurrencyMatch): string => match.code ?? match.written;

/** Whether amounts in this currency are quoted with three decimals (KWD, BHD, OMR, …). */
export const hasThreeDecimals = (code: string | undefined): boolean => code !== undefined && THREE_DECIMALS.has(code);

/**
 * Whether a text has a currency written in it: `findCurrencies(text).length > 0`, without
 * collecting them (asked of every short text of a page that has a digit).
 *
 * @example
 * hasCurrency('Only 12,99 €') // true
 */
export function hasCurrency(text: string): boolean {
	for (let start = 0; start < text.length; start++) {
		const tokens = BY_FIRST.get(text[start]!);
		if (tokens !== undefined && tokens.some((token) => text.startsWith(token, start) && bounded(text, start, token))) return true;
	}
	return false;
}

/**
 * Every currency written in a text, left to right. A token made of letters counts only as
 * a word of its own ("kr" in "150 kr", not in "Kraft"); digits and symbols may touch it ("RM50").
 *
 * @example
 * findCurrencies('NZD $100.70').map((c) => c.written) // ['NZD', '$']
 */
export function findCurrencies(text: string): CurrencyMatch[] {
	const found: CurrencyMatch[] = [];
	for (let start = 0; start < text.length; start++) {
		const written = BY_FIRST.get(text[start]!)?.find((token) => text.startsWith(token, start) && bounded(text, start, token));
		if (!written) continue;
		const code = currencyCode(written);
		const rank = ISO_CODES.has(written) || LOWER_CASE_CODES.has(written) || WITHDRAWN[written] !== undefined ? 3 : code ? 2 : 1;
		found.push({ start, end: start + written.length, written, ...(code ? { code } : {}), rank });
		start += written.length - 1;
	}
	return found;
}
