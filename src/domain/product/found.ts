import { currencyCode, isCurrencyWritten, isIsoCode, WITHDRAWN } from './currencies.js';
import type { Candidate } from './this-product.js';
import type { Availability, OfferSource } from '../../store/model/product.js';

/** One offer as one markup gave it, for `rules test --product` to show; the offer is made from these. */
export interface Found {
	from: OfferSource;
	/** Where on the page: `script #2 Product.offers[0]`, `itemscope #3 Offer`, `meta product:price:amount`, `selector .price`. */
	where: string;
	price?: number;
	/** The price struck through or stated as "was", list or recommended, beside the price asked. */
	listPrice?: number;
	currency?: string;
	availability?: Availability;
	/** The values as the markup wrote them (`"2879.20"`, `"http://schema.org/InStock"`), where they were read. */
	written: { price?: string; currency?: string; availability?: string };
	/** Why the written price was not read: `negative price -5 refused`, `price of 400 digits refused as absurd`. */
	problem?: string;
	/** Why the written currency was not read: `currency "UAN" is no ISO 4217 code: not read`. */
	currencyProblem?: string;
	/** The product the offer is of, where the markup says (absent: an offer of no product named, taken as the page's). */
	product?: Candidate;
	/** What names this offer or its variant (its `url`, `@id`, `sku`): how a URL's `?variant=` finds it. */
	keys?: string[];
}

/**
 * The currency as markup states it (`priceCurrency`, `og:price:currency`), or why it is not
 * read. A currency is an ISO 4217 code: a three-letter code in any case (`eur` → `EUR`),
 * a withdrawn one as the code that replaced it (`RUR` → `RUB`), a symbol or word of one
 * currency as its code (`€` → `EUR`), and a symbol several share as written (`$`, `kr`:
 * the page's signals name its code later, `currencyNamed`). Anything else (`UAN`, a typo;
 * a sentence; an escape sequence) is not read, and `problem` says so.
 *
 * @example
 * currencyRead('rur') // { currency: 'RUB' }
 * currencyRead('UAN') // { problem: 'currency "UAN" is no ISO 4217 code: not read' }
 */
export function currencyRead(value: unknown): { currency?: string; problem?: string } {
	if (typeof value !== 'string') return {};
	const text = value.trim();
	if (text === '') return {};
	const code = /^[a-z]{3}$/i.test(text) ? (WITHDRAWN[text.toUpperCase()] ?? text.toUpperCase()) : undefined;
	if (code !== undefined && isIsoCode(code)) return { currency: code };
	if (code === undefined && isCurrencyWritten(text)) return { currency: currencyCode(text) ?? text };
	return { problem: `currency ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} is no ISO 4217 code: not read` };
}

/**
 * The currency as markup states it, or undefined where it states none or none is read (`currencyRead`).
 *
 * @example
 * currencyOf('rur') // 'RUB'
 */
export const currencyOf = (value: unknown): string | undefined => currencyRead(value).currency;

/**
 * The currency of a price whose markup states one (`priceCurrency`) and whose text may name
 * one too (`253.0 грн`): the stated one, unless it is no ISO code (`UAN`, a typo) and the
 * text's is one (`UAH`): then the text's, since a shop that misspells a code writes the
 * symbol it shows its buyers right.
 *
 * @example
 * statedCurrency('UAN', 'UAH') // 'UAH'
 * statedCurrency('EUR', 'USD') // 'EUR'
 */
export const statedCurrency = (stated: string | undefined, shown: string | undefined): string | undefined =>
	stated !== undefined && !isIsoCode(stated) && shown !== undefined && isIsoCode(shown) ? shown : (stated ?? shown);
