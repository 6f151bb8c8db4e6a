import type { ConditionalForm, FormChecks } from '../../store/model/types.js';

/**
 * The ways a conditional request can be put to a host. Servers differ in which they
 * honour: a common one appends the content coding to its ETag when it compresses
 * (`"2062-661b-gzip"`) and then never matches that tag, yet answers 304 to
 * If-Modified-Since alone, or to the tag without the suffix. Sending both validators to
 * such a host buys a full body every time.
 */
export type { ConditionalForm, FormChecks };

/**
 * The order in which forms are tried, and preferred when several work: the most telling
 * first. An ETag (Apache's `"size-mtime"`) carries the size as well as the time, so the
 * suffix-stripped tag with If-Modified-Since comes before If-Modified-Since alone: a
 * redeploy that keeps file times (rsync -t, cp -p, tar x) but changes a page's size is
 * a 200 to the first and a 304 to the second.
 */
export const FORM_ORDER: readonly ConditionalForm[] = ['both', 'etag', 'etag-stripped-both', 'etag-stripped', 'last-modified'];

/** How a form is named in `revisit stats`. */
export const FORM_NAMES: Record<ConditionalForm, string> = {
	both: 'the validators as sent',
	etag: 'If-None-Match alone',
	'last-modified': 'If-Modified-Since alone',
	'etag-stripped': 'the ETag without its content-coding suffix',
	'etag-stripped-both': 'the ETag without its content-coding suffix, with If-Modified-Since',
};

export interface Validators {
	etag?: string | undefined;
	lastModified?: string | undefined;
}

/** A content-coding suffix some servers add inside the quotes of a compressed response's ETag. */
const CODING_SUFFIX = /^(W\/)?"(.+?)(?:-|--|;|\+)(?:gzip|x-gzip|br|deflate|zstd)"$/i;

/**
 * The ETag with a content-coding suffix removed, or undefined when it has none.
 *
 * @example
 * stripCoding('"2062-661b4e4b89b16-gzip"') // '"2062-661b4e4b89b16"'
 */
export function stripCoding(etag: string): string | undefined {
	const match = CODING_SUFFIX.exec(etag);
	return match ? `${match[1] ?? ''}"${match[2]}"` : undefined;
}

/**
 * The conditional headers of `form` for a URL's validators; undefined when the form
 * does not apply to them (no such validator), or says nothing the `both` form would not.
 *
 * @example
 * formHeaders('last-modified', { etag: '"a-gzip"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' })
 * // { 'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT' }
 */
export function formHeaders(form: ConditionalForm, validators: Validators): Record<string, string> | undefined {
	const { etag, lastModified } = validators;
	const both = etag !== undefined && lastModified !== undefined;
	switch (form) {
		case 'both':
			if (etag === undefined && lastModified === undefined) return undefined;
			return { ...(etag !== undefined && { 'if-none-match': etag }), ...(lastModified !== undefined && { 'if-modified-since': lastModified }) };
		case 'etag':
			return both ? { 'if-none-match': etag } : undefined;
		case 'last-modified':
			return both ? { 'if-modified-since': lastModified } : undefined;
		case 'etag-stripped': {
			const stripped = etag === undefined ? undefined : stripCoding(etag);
			return stripped === undefined ? undefined : { 'if-none-match': stripped };
		}
		case 'etag-stripped-both': {
			const stripped = etag === undefined ? undefined : stripCoding(etag);
			return stripped === undefined || lastModified === undefined ? undefined : { 'if-none-match': stripped, 'if-modified-since': lastModified };
		}
	}
}

/** What `revisit stats` says when a form other than `both` is chosen: what failed, and what works. */
const CHOSEN: Record<Exclude<ConditionalForm, 'both'>, string> = {
	etag: 'If-Modified-Since with If-None-Match ignored; If-None-Match alone gets 304s',
	'last-modified': 'ETag conditionals ignored; If-Modified-Since alone gets 304s',
	'etag-stripped': 'ETag ignored as sent; the ETag without its content-coding suffix gets 304s',
	'etag-stripped-both':
		'ETag ignored as sent; the ETag without its content-coding suffix, with If-Modified-Since, gets 304s: ' +
		'chosen as the most telling form that does (the tag carries the size as well as the time, so a redeploy that keeps file times is still seen)',
};

/**
 * The form a host should get, from its checks: the first in FORM_ORDER (the most
 * telling) that got a 304 at least half the time, or `none` when every form tried was ignored. The reason is
 * what `revisit stats` shows.
 *
 * @example
 * chooseForm({ both: { tried: 2, hits: 0 }, etag: { tried: 2, hits: 0 }, 'last-modified': { tried: 2, hits: 2 } })
 * // { form: 'last-modified', reason: 'ETag conditionals ignored; If-Modified-Since alone gets 304s' }
 */
export function chooseForm(checks: FormChecks): { form: ConditionalForm | 'none'; reason: string } {
	const works = (form: ConditionalForm): boolean => {
		const check = checks[form];
		return check !== undefined && check.tried > 0 && check.hits * 2 >= check.tried;
	};
	const form = FORM_ORDER.find(works);
	if (form === undefined) {
		const tried = FORM_ORDER.filter((candidate) => checks[candidate] !== undefined).map((candidate) => FORM_NAMES[candidate]);
		return { form: 'none', reason: `no conditional form gets 304s (tried: ${tried.join('; ') || 'none'})` };
	}
	return { form, reason: form === 'both' ? 'conditionals honoured as sent' : CHOSEN[form] };
}
