import { wordDiffText } from '../../domain/content/word-diff-text.js';
import { UsageError } from '../../base/errors/index.js';
import { offerMoves } from '../../domain/product/fields.js';
import type { Task } from '../../domain/task/types.js';
import type { Message } from './types.js';

/** The placeholders a `--notify-template` may use. */
export const PLACEHOLDERS = ['url', 'reason', 'price', 'previous_price', 'currency', 'availability', 'previous_availability', 'diff', 'note'] as const;

/** How much of a diff a message carries: chat services cut long messages, and a notification is a pointer, not the page. */
const DIFF_CHARS = 1000;

/**
 * Checks a template's placeholders when the sink is built, not at the first change.
 *
 * @example
 * checkTemplate('{url}: {price} {currency}') // ok
 * checkTemplate('{prize}') // throws UsageError
 */
export function checkTemplate(template: string): void {
	for (const [, name] of template.matchAll(/\{([^{}\s]*)\}/g)) {
		if (!(PLACEHOLDERS as readonly string[]).includes(name!))
			throw new UsageError(`notify template: unknown placeholder {${name}}; use ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`);
	}
}

/** A price as shops write it: two decimals unless it has more (`21` → `21.00`). */
export function formatPrice(price: number | undefined): string {
	if (price === undefined) return '';
	return Number.isInteger(price * 100) ? price.toFixed(2) : String(price);
}

/** The word diff as text, git's `--word-diff` style: `[-old-]{+new+}`; else the unified diff. */
function diffOf(task: Task): string {
	const text = task.diff ?? wordDiffText(task.wordDiff?.hunks ?? []);
	return text.length > DIFF_CHARS ? `${text.slice(0, DIFF_CHARS)}…` : text;
}

const TITLES: Record<string, string> = {
	new: 'New page',
	gone: 'Gone',
	price: 'Price changed',
	availability: 'Availability changed',
	'selector-gone': 'Selector gone',
};

/**
 * The notification for one change: the title names what moved; the body is the URL, the
 * reason, the note where the text is the same and the bytes moved, the offer before →
 * after on a product page, else a short word diff. A template
 * replaces the body (see PLACEHOLDERS; checked with `checkTemplate`).
 *
 * @example
 * messageOf(task).body // 'https://shop.example/kettle\nreason: price\nprice 24.5 EUR → 21 EUR'
 */
export function messageOf(task: Task, template?: string): Message {
	const verdict = task.verdict!;
	const now = verdict.product;
	const before = verdict.previous;
	const values: Record<(typeof PLACEHOLDERS)[number], string> = {
		url: verdict.url,
		reason: verdict.reason,
		note: verdict.note ?? '',
		price: formatPrice(now?.price),
		previous_price: formatPrice(before?.price),
		currency: now?.currency ?? before?.currency ?? '',
		availability: now?.availability ?? '',
		previous_availability: before?.availability ?? '',
		diff: diffOf(task),
	};
	// The offer's move as every output says it (domain/product/fields.ts), a line each for the price and the availability.
	const offer = now ? offerMoves(now, before) : [];
	const body =
		template === undefined
			? [
					verdict.url,
					`reason: ${verdict.reason}`,
					...(verdict.note === undefined ? [] : [verdict.note]),
					...offer,
					...(offer.length === 0 && values.diff ? ['', values.diff] : []),
				].join('\n')
			: template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (name in values ? values[name as keyof typeof values] : whole));
	const fields: Record<string, unknown> = { reason: verdict.reason };
	if (verdict.note !== undefined) fields['note'] = verdict.note;
	if (now) fields['product'] = now;
	if (before) fields['previous'] = before;
	return { title: `${TITLES[verdict.reason] ?? 'Changed'}: ${verdict.url}`, body, url: verdict.url, fields };
}
