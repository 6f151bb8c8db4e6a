import { diffTokens } from '../content/word-diff.js';
import type { Availability, Product } from '../../store/model/product.js';
import type { Task } from '../task/types.js';

/**
 * The names a condition may use, with what each holds (docs/6-noise.md, "Conditions").
 * A name whose value is unknown for a page (no price read, no earlier text) is missing:
 * see compile.ts for what a missing value does.
 */
export const CONDITION_NAMES = {
	price: 'the price read from the page (--product)',
	previous_price: 'the price at the check before',
	currency: 'the currency, as ISO 4217 (EUR) or as written ($)',
	availability: 'the schema.org availability (InStock, OutOfStock, …)',
	price_change: 'the price change as a fraction of the price before (-0.1: 10% down)',
	in_stock: 'true when the availability is one that can be bought now',
	was_in_stock: 'in_stock at the check before',
	text: "the page's counted text (as --keep-text keeps it)",
	changed_words: 'words added and removed since the text kept at the last change',
	true: 'true',
	false: 'false',
} as const;

export type ConditionName = keyof typeof CONDITION_NAMES;

/**
 * The availabilities that count as in stock: what can be bought (or ordered for delivery)
 * now. The same set as changedetection.io's restock detection; PreOrder, BackOrder and
 * MadeToOrder are not (the buyer waits), nor OutOfStock, SoldOut, Discontinued, Reserved.
 */
export const IN_STOCK: ReadonlySet<Availability> = new Set<Availability>(['InStock', 'LimitedAvailability', 'OnlineOnly', 'InStoreOnly', 'PreSale']);

/** A condition's values for one page: a missing one is absent. */
export type ConditionValues = Partial<Record<Exclude<ConditionName, 'true' | 'false'>, string | number | boolean>>;

/**
 * The values a condition is evaluated on, for a judged task: the offer now and before
 * (`verdict.product`, `verdict.previous`), the counted text and the word diff
 * (`task.wordDiff`). A verdict with a product and no `previous` kept its offer (compare
 * leaves `previous` out when nothing in it moved), so the offer before is the same; a
 * first sight has none.
 *
 * @example
 * conditionValues(task) // { price: 21, previous_price: 24.5, price_change: -0.142…, in_stock: true, was_in_stock: true, … }
 */
export function conditionValues(task: Task): ConditionValues {
	const verdict = task.verdict;
	const now = verdict?.product;
	const before: Product | undefined = verdict?.previous ?? (now && verdict?.reason !== 'new' ? now : undefined);
	const values: ConditionValues = {
		in_stock: now?.availability !== undefined && IN_STOCK.has(now.availability),
		was_in_stock: before?.availability !== undefined && IN_STOCK.has(before.availability),
	};
	if (now?.price !== undefined) values.price = now.price;
	if (before?.price !== undefined) values.previous_price = before.price;
	if (now?.currency !== undefined) values.currency = now.currency;
	if (now?.availability !== undefined) values.availability = now.availability;
	if (now?.price !== undefined && before?.price !== undefined && before.price !== 0) values.price_change = (now.price - before.price) / before.price;
	const counted = task.probe?.counted ?? task.probe?.audit?.counted;
	if (counted) values.text = counted.text;
	const words = changedWords(task.wordDiff);
	if (words !== undefined) values.changed_words = words;
	return values;
}

/**
 * Words (and numbers) added plus removed in a word diff; 0 when only markup or whitespace
 * moved; Infinity when the texts were too different to diff (more than any bound); missing
 * when there is no diff to count (a first sight, no text kept before, a change past the
 * kept text).
 *
 * @example
 * changedWords({ hunks: [[[0, 'price'], [0, ' '], [-1, '5'], [1, '6']]], why: 'diff' }) // 2
 */
export function changedWords(wordDiff: Task['wordDiff']): number | undefined {
	if (wordDiff === undefined) return undefined;
	if (wordDiff.why === 'same-text') return 0;
	if (wordDiff.why === 'too-different') return Number.POSITIVE_INFINITY;
	if (wordDiff.why !== 'diff' || !wordDiff.hunks) return undefined;
	let words = 0;
	for (const hunk of wordDiff.hunks)
		for (const [op, text] of hunk) if (op !== 0) words += diffTokens(text).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
	return words;
}
