/**
 * Bounds on a condition's size, checked before filtrex parses it. Filtrex's parser and the
 * JavaScript it generates recurse once per level of nesting and once per operator of a
 * chain (`1+1+1…`), so a long enough expression runs the call stack out, and 100,000
 * nested parentheses kept it busy for minutes before that. A condition a person writes
 * is far inside all three bounds.
 */
import { placeOf } from './syntax.js';

/** The most characters a condition may have. */
export const MAX_LENGTH = 4096;
/** The most parentheses (or brackets) a condition may nest. */
export const MAX_DEPTH = 64;
/** The most operators a condition may have (each `and`, `not`, `+`, `<`…): a chain of them nests as deep in the parser as parentheses do. */
export const MAX_OPERATORS = 256;

// Strings and quoted names (whose brackets do not nest), words, operators, brackets, the rest.
const TOKENS =
	/"(?:\\"|\\\\|[^"\\])*"|'(?:\\'|\\\\|[^'\\])*'|[a-zA-Z$_][.a-zA-Z0-9$_]*|[0-9][0-9.]*(?:e[-+]?[0-9]+)?|[<>=!~]=?|[-+*/^%?:]|[([{]|[)\]}]|[\s\S]/gi;
const WORD_OPERATORS = new Set(['and', 'or', 'not', 'in', 'of', 'if', 'then', 'else', 'mod']);
const OPERATOR = /^(?:[<>=!~]=?|[-+*/^%?:])$/;

/**
 * What makes an expression too big to parse, in a few words with the column where it went
 * past the bound, or undefined when it is within them. The nesting is checked first: it
 * stops at the bracket that passes it, however long the rest is.
 *
 * @example
 * sizeProblem('('.repeat(100_000)) // 'nested deeper than 64 parentheses at column 65'
 * sizeProblem('price < 40') // undefined
 */
export function sizeProblem(expression: string): string | undefined {
	let depth = 0;
	let operators = 0;
	for (const match of expression.matchAll(TOKENS)) {
		const token = match[0];
		if (token === '(' || token === '[' || token === '{') {
			if (++depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} parentheses${placeOf(expression, match.index)}`;
		} else if (token === ')' || token === ']' || token === '}') depth--;
		else if (OPERATOR.test(token) || WORD_OPERATORS.has(token)) {
			if (++operators > MAX_OPERATORS) return `more than ${MAX_OPERATORS} operators${placeOf(expression, match.index)}`;
		}
		// A string is one token however long: the length bound still holds it.
		if (match.index + token.length > MAX_LENGTH) return `longer than ${MAX_LENGTH} characters (it has ${expression.length})`;
	}
	return undefined;
}
