import { compileExpression } from 'filtrex';
import { UsageError } from '../../base/errors/index.js';
import { CONDITION_NAMES, type ConditionValues } from './names.js';
import { MAX_LENGTH, sizeProblem } from './limits.js';
import { literalPatterns, compilePattern, patternCache, type Pattern } from './patterns.js';
import { errorOffset, placeOf, symbolUses } from './syntax.js';
import { syntaxHint, unknownSymbol } from './hints.js';

/** A compiled `--when` condition. */
export interface Condition {
	/** The expression as written. */
	source: string;
	/** Whether it holds for a page's values: true only when it evaluates to true. */
	holds(values: ConditionValues): boolean;
}

/**
 * A missing value (no price read, no diff to count) stands for itself through the
 * expression, as SQL's NULL does: any comparison with it is false (`!=` too), arithmetic
 * on it stays missing, `in (…)` does not hold (`not in` does), `exists()` is false.
 * It is an object (not undefined) so that filtrex's `in` takes it without failing.
 */
const MISSING: object = Object.freeze({ missing: true });
const isMissing = (...values: unknown[]): boolean => values.some((value) => value === MISSING);

const kind = (value: unknown): string => (isMissing(value) ? 'a missing value' : typeof value === 'string' ? 'text' : typeof value);

function numbers(op: string, a: unknown, b: unknown): [number, number] {
	if (typeof a === 'number' && typeof b === 'number') return [a, b];
	throw new TypeError(`${op} takes numbers, got ${kind(a)} and ${kind(b)}`);
}

const arithmetic = (op: string, apply: (a: number, b: number) => number) => (a: unknown, b: unknown) =>
	isMissing(a, b) ? MISSING : apply(...numbers(op, a, b));
const order = (op: string, apply: (a: number, b: number) => boolean) => (a: unknown, b: unknown) => !isMissing(a, b) && apply(...numbers(op, a, b));

/** The operators, `~=` with the condition's own pattern cache. */
const operators = (pattern: (source: string) => Pattern) => ({
	'+': (a: unknown, b: unknown) => {
		if (isMissing(a, b)) return MISSING;
		if (typeof a === 'string' || typeof b === 'string') return String(a) + String(b);
		return (([x, y]) => x + y)(numbers('+', a, b));
	},
	'-': (a: unknown, b?: unknown) => (b === undefined ? (isMissing(a) ? MISSING : -numbers('-', a, 0)[0]) : arithmetic('-', (x, y) => x - y)(a, b)),
	'*': arithmetic('*', (x, y) => x * y),
	'/': arithmetic('/', (x, y) => x / y),
	'^': arithmetic('^', (x, y) => x ** y),
	mod: arithmetic('mod', (x, y) => ((x % y) + y) % y),
	'==': (a: unknown, b: unknown) => !isMissing(a, b) && a === b,
	'!=': (a: unknown, b: unknown) => !isMissing(a, b) && a !== b,
	'<': order('<', (x, y) => x < y),
	'<=': order('<=', (x, y) => x <= y),
	'>': order('>', (x, y) => x > y),
	'>=': order('>=', (x, y) => x >= y),
	'~=': (a: unknown, b: unknown) => {
		if (isMissing(a, b)) return false;
		if (typeof a !== 'string' || typeof b !== 'string') throw new TypeError(`~= matches text against a "regular expression", got ${kind(a)} and ${kind(b)}`);
		return pattern(b).test(a);
	},
});

// Filtrex's own functions, each missing when an argument is, and those added here.
const math =
	(name: string, apply: (...args: number[]) => number) =>
	(...args: unknown[]) => {
		if (isMissing(...args)) return MISSING;
		if (!args.every((arg) => typeof arg === 'number')) throw new TypeError(`${name}() takes numbers, got ${args.map(kind).join(' and ')}`);
		return apply(...(args as number[]));
	};

const FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
	abs: math('abs', Math.abs),
	ceil: math('ceil', Math.ceil),
	floor: math('floor', Math.floor),
	round: math('round', Math.round),
	sqrt: math('sqrt', Math.sqrt),
	log: math('log', Math.log),
	log2: math('log2', Math.log2),
	log10: math('log10', Math.log10),
	min: math('min', Math.min),
	max: math('max', Math.max),
	exists: (value) => value !== undefined && value !== null && !isMissing(value),
	empty: (value) => value === undefined || value === null || value === '' || isMissing(value),
	/** Whether `text` holds `part`, ignoring case: `contains(text, "sold out")`. */
	contains: (text, part) => {
		if (isMissing(text, part)) return false;
		if (typeof text !== 'string' || typeof part !== 'string') throw new TypeError(`contains() takes text and "text", got ${kind(text)} and ${kind(part)}`);
		return text.toLowerCase().includes(part.toLowerCase());
	},
};

const NAMES = Object.keys(CONDITION_NAMES);

// Values every name can take, to try a new condition on: a type error it reaches (`price and 3`, `text < 5`) is refused at once, not on every page.
const SAMPLES: ConditionValues[] = [
	{
		price: 10,
		previous_price: 20,
		currency: 'EUR',
		availability: 'InStock',
		price_change: -0.5,
		in_stock: true,
		was_in_stock: false,
		text: 'sample text',
		changed_words: 5,
	},
	{
		price: 30,
		previous_price: 20,
		currency: 'USD',
		availability: 'OutOfStock',
		price_change: 0.5,
		in_stock: false,
		was_in_stock: true,
		text: '',
		changed_words: 0,
	},
];

/**
 * Compiles a `--when` expression (filtrex's language: `and`, `or`, `not`, comparisons,
 * `"strings"`, `in (…)`, `~=` for a regular expression, matched by RE2 in linear time,
 * `contains(text, "word")`); the expression is parsed, never evaluated as JavaScript.
 * Throws a UsageError, prefixed with `where` and ending with the expression, for one past
 * the size bounds (limits.ts: 4,096 characters, 64 nested parentheses, 256 operators), a
 * syntax error (naming its column), a name or function it does not know (listing those it
 * does), a `~=` pattern RE2 does not take (a backreference, a lookaround), or a type
 * error the sample values reach (`text < 5`).
 *
 * @example
 * compileCondition('price < 40 or (in_stock and not was_in_stock)').holds({ price: 35, in_stock: true, was_in_stock: true }) // true
 * compileCondition('price <<< 40') // UsageError: --when: syntax error at column 8: price <<< 40
 */
export function compileCondition(expression: string, where = '--when'): Condition {
	const compiled = attempt(expression);
	if ('problem' in compiled) throw new UsageError(`${where}: ${compiled.problem}: ${oneLine(expression)}`, { cause: compiled.cause });
	return { source: expression, holds: (values) => compiled.evaluate(values) === true };
}

/**
 * What is wrong with an expression, in a few words (`syntax error at column 8`), or
 * undefined when it compiles: for a pipeline file's problems, which show the value.
 *
 * @example
 * conditionProblem('price <<< 40') // 'syntax error at column 8'
 */
export function conditionProblem(expression: string): string | undefined {
	const compiled = attempt(expression);
	return 'problem' in compiled ? compiled.problem : undefined;
}

function attempt(expression: string): { evaluate: (values: object) => unknown } | { problem: string; cause?: unknown } {
	if (expression.trim() === '') return { problem: 'the expression is empty' };
	const tooBig = sizeProblem(expression);
	if (tooBig !== undefined) return { problem: tooBig };
	let evaluate: (values: object) => unknown;
	try {
		evaluate = compileExpression(expression, {
			operators: operators(patternCache()),
			extraFunctions: FUNCTIONS,
			constants: { true: true, false: false },
			// Names were checked when compiled: one without a value here is missing for this page.
			customProp: (name: string, _get: unknown, values: Record<string, unknown>) => (Object.hasOwn(values, name) ? values[name] : MISSING),
		});
	} catch (error) {
		// The size bounds keep the parser within the stack; should one not, the expression is refused all the same.
		if (error instanceof RangeError) return { problem: 'too deeply nested to parse', cause: error };
		return { problem: syntaxProblem(expression, error), cause: error };
	}
	const uses = symbolUses(expression);
	const unknown = uses.find((use) => use.kind === 'name' && !NAMES.includes(use.text));
	if (unknown !== undefined) return { problem: unknownSymbol(expression, unknown, NAMES) };
	const unknownFunction = uses.find((use) => use.kind === 'function' && !Object.hasOwn(FUNCTIONS, use.text));
	if (unknownFunction !== undefined) return { problem: unknownSymbol(expression, unknownFunction, Object.keys(FUNCTIONS)) };
	for (const source of literalPatterns(expression)) {
		const compiled = compilePattern(source);
		if ('problem' in compiled) return compiled;
	}
	for (const sample of SAMPLES) {
		const result = evaluate(sample);
		if (result instanceof Error) return { problem: result.message.replace(/\.$/, ''), cause: result };
		if (typeof result !== 'boolean')
			return { problem: `the expression must be true or false, and gives ${kind(result)} (a comparison such as changed_words > 0 is)` };
	}
	return { evaluate };
}

// Messages are one line (a pipeline file's problems are listed a line each), and one past the length bound shows its start only.
const oneLine = (expression: string): string => {
	const line = expression.replace(/\s*\n\s*/g, ' ');
	return expression.length > MAX_LENGTH ? `${line.slice(0, 40)}…` : line;
};

/** Filtrex's parse error in a few words: where it is, and what was likely meant (`||` for `or`). */
function syntaxProblem(expression: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const at = errorOffset(expression, message);
	const notes = [/got 'EndOfExpression'$/.test(message) ? 'it ends too soon' : undefined, syntaxHint(expression, at)].filter((note) => note !== undefined);
	return `syntax error${placeOf(expression, at)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}
