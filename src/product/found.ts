import type { Availability, OfferSource } from './types.js';

/** One offer as one markup gave it, for `rules test --product` to show; the offer is made from these. */
export interface Found {
	from: OfferSource;
	/** Where on the page: `script #2 Product.offers[0]`, `itemscope #3 Offer`, `meta product:price:amount`, `selector .price`. */
	where: string;
	price?: number;
	currency?: string;
	availability?: Availability;
	/** The values as the markup wrote them (`"2879.20"`, `"http://schema.org/InStock"`), where they were read. */
	written: { price?: string; currency?: string; availability?: string };
	/** Why the written price was not read: `negative price -5 refused`, `price of 400 digits refused as absurd`. */
	problem?: string;
}

/** The currency as markup names it: a three-letter code in capitals (`eur` → `EUR`), anything else as written. */
export const currencyOf = (value: unknown): string | undefined => {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text === '') return undefined;
	return /^[a-z]{3}$/i.test(text) ? text.toUpperCase() : text;
};
