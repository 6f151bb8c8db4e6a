/**
 * `~=`'s regular expressions, matched by RE2 (the re2js port): its time is linear in the
 * text, where JavaScript's backtracking RegExp takes exponential time on a pattern such
 * as `^(\w+\s?)+$`. RE2 has no backreferences and no lookaround, which are what need
 * backtracking; a pattern using them is refused when the condition is compiled.
 */
import { RE2JS } from 're2js';

/** A compiled pattern, as `~=` uses it: whether it matches somewhere in a text. */
export interface Pattern {
	test(text: string): boolean;
}

/** Patterns a condition keeps compiled: more than this (a pattern taken from each page's values) and it starts again. */
const KEPT = 100;

/**
 * A pattern compiled by RE2, or why RE2 does not take it, in a few words that quote it.
 *
 * @example
 * compilePattern('v[0-9]+\\.2') // { pattern: … }
 * compilePattern('(a)\\1') // { problem: '~= pattern "(a)\\1" is not one RE2 takes (invalid escape sequence: `\\1`; RE2 has no backreferences or lookaround)' }
 */
export function compilePattern(source: string): { pattern: Pattern } | { problem: string } {
	try {
		const compiled = RE2JS.compile(source);
		return { pattern: { test: (text) => compiled.test(text) } };
	} catch (error) {
		const reason = (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp: /, '');
		return { problem: `~= pattern ${JSON.stringify(source)} is not one RE2 takes (${reason}; RE2 has no backreferences or lookaround)` };
	}
}

/**
 * A cache of compiled patterns for one condition: `~=` finds a pattern written in the
 * expression here each time; one that RE2 refuses throws a TypeError, which fails that
 * page's evaluation (the condition does not hold) as a type error does.
 *
 * @example
 * const patterns = patternCache(); patterns('^v[0-9]+').test('v14') // true
 */
export function patternCache(): (source: string) => Pattern {
	const kept = new Map<string, Pattern>();
	return (source) => {
		let pattern = kept.get(source);
		if (pattern) return pattern;
		const compiled = compilePattern(source);
		if ('problem' in compiled) throw new TypeError(compiled.problem);
		if (kept.size >= KEPT) kept.clear();
		kept.set(source, (pattern = compiled.pattern));
		return pattern;
	};
}

// A `~=` and the string literal after it, when nothing after the literal can join it (`~= "a" + x`): the pattern is the literal.
const LITERAL_AFTER = /"(?:\\"|\\\\|[^"\\])*"|'(?:\\'|\\\\|[^'\\])*'|~=\s*("(?:\\"|\\\\|[^"\\])*")(?=\s*(?:$|[),]|(?:and|or|then|else)(?![\w$.])))|[\s\S]/g;

/**
 * The patterns written as string literals right of a `~=` in an expression that parsed,
 * unescaped as filtrex reads them (`\\` is one backslash, `\"` a quote).
 *
 * @example
 * literalPatterns('text ~= "v[0-9]+\\\\.2" and x') // ['v[0-9]+\\.2']
 */
export function literalPatterns(expression: string): string[] {
	const found: string[] = [];
	for (const [, literal] of expression.matchAll(LITERAL_AFTER)) if (literal !== undefined) found.push(literal.slice(1, -1).replace(/\\(["\\])/g, '$1'));
	return found;
}
