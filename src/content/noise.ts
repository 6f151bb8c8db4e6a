import { diffArrays } from 'diff';
import { hashText } from './content-hash.js';
import { removeMatches } from './counted.js';

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
	return tokens.slice(Math.max(0, at - 2), at).map(escape).join('');
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

/**
 * The content hash of counted text with the learned noise patterns' matches removed:
 * what a URL that has learned noise is judged by.
 *
 * @example
 * maskedHash('at 10:00:00 price 5', ['at \\d+:\\d+:\\d+']) === maskedHash('at 11:30:07 price 5', ['at \\d+:\\d+:\\d+']) // true
 */
export function maskedHash(text: string, sources: readonly string[]): string {
	return hashText(maskNoise(text, compileNoise(sources)));
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
