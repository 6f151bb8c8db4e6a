import { diffArrays } from 'diff';
import { hashText } from './content-hash.js';
import { removeMatches } from './counted.js';
import { htmlDifferences, maskHtml } from './noise-html.js';
import { jsonDifferences, jsonParts, maskJson } from './noise-json.js';

// Words, numbers, ids and timestamps stay whole (so that one changed id is one token);
// punctuation and whitespace are tokens of their own.
const TOKENS = /[A-Za-z0-9+/_.:-]+|\s+|[^\sA-Za-z0-9]/g;
// A pattern ends where its token ends: `\d+\.\d+` must not eat the head of `0.7ubw`.
const WHOLE = '(?![A-Za-z0-9])';
/** At most this many patterns per URL: a page that differs everywhere has no "parts" that are noise. */
export const MAX_PATTERNS = 40;

/**
 * The parts of a page's counted text that differ between two back-to-back fetches,
 * which are noise by definition, as regular expressions generalised by shape: runs of
 * digits become `\d+`, ids (letters and digits mixed, 8 or more) a class, and so on, each
 * anchored by the two tokens before it. "Generated at 09:14:02" and "…at 11:02:57" give
 * `at \d+:\d+:\d+`, which matches every later timestamp there and nothing else.
 * Returns no patterns when the texts are the same, or when too much differs to call noise.
 *
 * @example
 * learnNoise('<p>at 09:14:02</p>', '<p>at 09:14:03</p>') // ['p>at \\d+:\\d+:\\d+(?![A-Za-z0-9])']
 */
export function learnNoise(first: string, second: string): string[] {
	if (first === second) return [];
	const a = first.match(TOKENS) ?? [];
	const b = second.match(TOKENS) ?? [];
	const patterns = new Set<string>();
	let at = 0;
	let pendingRemoved = false;
	for (const part of diffArrays(a, b)) {
		if (part.added) {
			// Something appeared where nothing was: anchor it on what precedes it.
			if (!pendingRemoved) patterns.add(`${context(a, at)}${part.value.map(shape).join('')}${WHOLE}`);
			pendingRemoved = false;
			continue;
		}
		if (part.removed) {
			patterns.add(`${context(a, at)}${part.value.map(shape).join('')}${WHOLE}`);
			pendingRemoved = true;
		} else pendingRemoved = false;
		at += part.count ?? part.value.length;
	}
	patterns.delete(WHOLE);
	return patterns.size > MAX_PATTERNS ? [] : [...patterns];
}

/** The two tokens before position `at`, literally (escaped), as the pattern's anchor. */
function context(tokens: readonly string[], at: number): string {
	return tokens
		.slice(Math.max(0, at - 2), at)
		.map(escape)
		.join('');
}

/**
 * A token generalised by its shape: split at punctuation (kept literally), each run of
 * digits is `\d+`, of letters `[A-Za-z]+`, of both (ids, base36, base64, hex) `[A-Za-z0-9]+`.
 * `2026-12-04T09:14:02Z` becomes `\d+-\d+-[A-Za-z0-9]+:\d+:[A-Za-z0-9]+`.
 */
function shape(token: string): string {
	if (/^\s+$/.test(token)) return '\\s+';
	return token
		.split(/([^A-Za-z0-9]+)/)
		.map((segment, i) => {
			if (i % 2 === 1 || segment === '') return escape(segment);
			if (/^\d+$/.test(segment)) return '\\d+';
			if (/^[A-Za-z]+$/.test(segment)) return '[A-Za-z]+';
			return '[A-Za-z0-9]+';
		})
		.join('');
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** How learned noise reads a counted text: by its structure (HTML, JSON) or, failing that, by tokens. */
export type NoiseKind = 'html' | 'json' | 'text';

/** HTML when it starts with a tag, JSON when it parses, plain text otherwise. */
export function kindOf(text: string): NoiseKind {
	if (jsonParts(text)) return 'json';
	return /^\s*</.test(text) ? 'html' : 'text';
}

export interface LearnOptions {
	/** A `select` or `pointer` rule chose what counts: what it chose is never learned whole. */
	protectTop?: boolean | undefined;
	/** Learn nothing from plain text (a `select` rule's visible text: the tokens are what was chosen). */
	noText?: boolean | undefined;
}

/**
 * The places where two back-to-back fetches of a page differ, which are noise by
 * definition: in HTML, element paths (`html:body>aside.ad`, masked whole), text nodes and
 * attributes (`html:…>script@nonce`); in JSON, pointers (`json:/requestId`); in plain
 * text, token patterns (`re:…`, see `learnNoise`). None when the texts agree, or when more
 * than MAX_PATTERNS places differ (a page that differs everywhere has no noise, it changed).
 *
 * @example
 * learnPlaces('<p class="a">5</p><p class="t">09:14</p>', '<p class="a">5</p><p class="t">09:15</p>') // ['html:p.t']
 */
export function learnPlaces(first: string, second: string, options: LearnOptions = {}): string[] {
	if (first === second) return [];
	const kind = kindOf(first);
	if (kindOf(second) !== kind) return [];
	const places =
		kind === 'html'
			? htmlDifferences(first, second, options.protectTop).map((at) => `html:${at}`)
			: kind === 'json'
				? jsonDifferences(first, second).map((at) => `json:${at}`)
				: options.noText
					? []
					: learnNoise(first, second).map((pattern) => `re:${pattern}`);
	return places.length > MAX_PATTERNS ? [] : places;
}

/**
 * The counted text with learned places left out: HTML elements, text and attributes
 * removed, JSON pointers masked, token patterns' matches removed; `legacy`, patterns an
 * earlier revisit learned, last. With no places the text is returned as it is.
 *
 * @example
 * applyNoise('<p class="t">09:14</p><p>5</p>', ['html:p.t']) // '<p>5</p>'
 */
export function applyNoise(text: string, places: readonly string[], legacy: readonly string[] = []): string {
	const html = places.filter((at) => at.startsWith('html:')).map((at) => at.slice(5));
	const json = places.filter((at) => at.startsWith('json:')).map((at) => at.slice(5));
	const patterns = places.filter((at) => at.startsWith('re:')).map((at) => at.slice(3));
	let out = text;
	if (html.length > 0 && kindOf(out) === 'html') out = maskHtml(out, html);
	if (json.length > 0) out = maskJson(out, json);
	return removeMatches(out, compileNoise([...patterns, ...legacy]));
}

/**
 * The content hash of counted text with learned noise left out (see `applyNoise`): what a
 * URL that has learned noise is judged by.
 *
 * @example
 * maskedHash('<p class="t">10:00</p><p>5</p>', ['html:p.t']) === maskedHash('<p class="t">11:30</p><p>5</p>', ['html:p.t']) // true
 */
export function maskedHash(text: string, places: readonly string[], legacy: readonly string[] = []): string {
	return hashText(applyNoise(text, places, legacy));
}

/** The text with every learned noise pattern's matches removed (see `removeMatches`). */
export const maskNoise = removeMatches;

/** Stored pattern sources as global regular expressions; a source that no longer compiles is skipped. */
export function compileNoise(sources: readonly string[]): RegExp[] {
	return sources.flatMap((source) => {
		try {
			return [new RegExp(source, 'g')];
		} catch {
			return [];
		}
	});
}
