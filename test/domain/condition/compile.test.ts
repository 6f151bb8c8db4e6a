import { describe, expect, it } from 'vitest';
import { compileCondition, conditionProblem } from '../../../src/domain/condition/compile.js';
import { UsageError } from '../../../src/base/errors/index.js';

const problem = (expression: string): string => {
	try {
		compileCondition(expression);
	} catch (error) {
		expect(error).toBeInstanceOf(UsageError);
		return (error as Error).message;
	}
	throw new Error(`compiled: ${expression}`);
};

describe('compileCondition', () => {
	it('evaluates and, or, not, comparisons and strings over the names', () => {
		const restock = compileCondition('price < 40 or (in_stock and not was_in_stock)');
		expect(restock.holds({ price: 35, in_stock: false, was_in_stock: false })).toBe(true);
		expect(restock.holds({ price: 45, in_stock: true, was_in_stock: false })).toBe(true);
		expect(restock.holds({ price: 45, in_stock: true, was_in_stock: true })).toBe(false);
		expect(compileCondition('availability == "OutOfStock"').holds({ availability: 'OutOfStock', in_stock: false, was_in_stock: false })).toBe(true);
		expect(compileCondition('availability in ("InStock", "PreSale")').holds({ availability: 'PreSale' })).toBe(true);
		expect(compileCondition('price_change <= -0.1').holds({ price_change: -0.25 })).toBe(true);
		expect(compileCondition('price_change <= -0.1').holds({ price_change: -0.05 })).toBe(false);
		expect(compileCondition('in_stock == true').holds({ in_stock: true })).toBe(true);
	});

	it('finds words in the text: contains() ignoring case, ~= with a regular expression', () => {
		expect(compileCondition('contains(text, "Sold Out")').holds({ text: 'This item is sold out.' })).toBe(true);
		expect(compileCondition('contains(text, "Sold Out")').holds({ text: 'In stock' })).toBe(false);
		expect(compileCondition('text ~= "v[0-9]+\\\\.2"').holds({ text: 'release v14.2' })).toBe(true);
		expect(compileCondition('not contains(text, "beta")').holds({ text: 'Beta 2' })).toBe(false);
	});

	it('makes every comparison with a missing value false, without failing the rest of the expression', () => {
		expect(compileCondition('price < 40').holds({})).toBe(false);
		expect(compileCondition('price >= 40').holds({})).toBe(false);
		expect(compileCondition('price != 40').holds({})).toBe(false);
		expect(compileCondition('not (price < 40)').holds({})).toBe(true);
		// The missing price fails its comparison; the rest still decides.
		expect(compileCondition('price * 2 < 80 or changed_words > 3').holds({ changed_words: 4 })).toBe(true);
		expect(compileCondition('abs(price_change) > 0.1 or contains(text, "x")').holds({ text: 'x' })).toBe(true);
		expect(compileCondition('availability in ("InStock") or changed_words > 3').holds({ changed_words: 5 })).toBe(true);
		expect(compileCondition('availability not in ("InStock")').holds({})).toBe(true);
		expect(compileCondition('exists(price)').holds({})).toBe(false);
		expect(compileCondition('exists(price)').holds({ price: 0 })).toBe(true);
		expect(compileCondition('contains(text, "a") or text ~= "b"').holds({})).toBe(false);
	});

	it('names the column of a syntax error, and the line when there are several', () => {
		expect(problem('price <<< 40')).toBe('--when: syntax error at column 8: price <<< 40');
		expect(problem('price @ 3')).toBe('--when: syntax error at column 7: price @ 3');
		expect(problem('(price < 40')).toBe('--when: syntax error at column 12 (it ends too soon): (price < 40');
		expect(problem('changed_words > 3 and changed_words < 1000 or changed_words == 7 and price <<< 2')).toBe(
			'--when: syntax error at column 77: changed_words > 3 and changed_words < 1000 or changed_words == 7 and price <<< 2',
		);
		expect(problem('price < 40 or\n  in_stock <')).toBe('--when: syntax error at line 2, column 13 (it ends too soon): price < 40 or in_stock <');
		expect(problem('   ')).toBe('--when: the expression is empty:    ');
	});

	it('refuses an unknown name or function when compiled, naming its column and listing the known ones', () => {
		expect(problem('xyzzy < 40')).toBe(
			'--when: unknown name `xyzzy` at column 1 (the names are price, previous_price, currency, ' +
				'availability, price_change, in_stock, was_in_stock, text, changed_words): xyzzy < 40',
		);
		// Even where evaluation would never reach it.
		expect(problem("in_stock or 'stock' > 3")).toContain("unknown name 'stock' at column 13");
		expect(problem('upper(text) == "A"')).toContain('unknown function `upper()`');
		expect(() => compileCondition('price < 40', 'when')).not.toThrow();
	});

	it('refuses a type error the sample values reach, and a result that is not true or false', () => {
		expect(problem('text < 5')).toBe('--when: < takes numbers, got text and number: text < 5');
		expect(problem('price and in_stock')).toContain('but got a number');
		expect(problem('changed_words')).toBe(
			'--when: the expression must be true or false, and gives number (a comparison such as changed_words > 0 is): changed_words',
		);
		expect(problem('text ~= "("')).toContain('~= pattern "(" is not one RE2 takes (missing closing )');
	});

	it('names the problem in a few words for a pipeline file', () => {
		expect(conditionProblem('price <<< 40')).toBe('syntax error at column 8');
		expect(conditionProblem('price < 40')).toBeUndefined();
	});

	describe('hints for what another language would have meant', () => {
		const NAMES = 'the names are price, previous_price, currency, availability, price_change, in_stock, was_in_stock, text, changed_words';

		it("text in 'single quotes' is a name in filtrex: use double quotes", () => {
			expect(problem("availability == 'InStock'")).toBe(
				`--when: unknown name 'InStock' at column 17 ('single quotes' make a name: write text in double quotes, "InStock"): availability == 'InStock'`,
			);
			expect(problem("contains(text, 'sold out')")).toContain(
				`unknown name 'sold out' at column 16 ('single quotes' make a name: write text in double quotes, "sold out")`,
			);
			// A known name may be quoted: that is no mistake.
			expect(() => compileCondition("'price' < 40")).not.toThrow();
		});

		it('an availability or a word compared with == written bare: text goes in double quotes', () => {
			expect(problem('availability == InStock')).toBe(
				'--when: unknown name `InStock` at column 17 (text goes in double quotes: "InStock"): availability == InStock',
			);
			expect(problem('currency != EUR')).toBe('--when: unknown name `EUR` at column 13 (text goes in double quotes: "EUR"): currency != EUR');
		});

		it.each([
			['in_stock || price < 40', 'syntax error at column 10 (write `or` for `||`: the words are and, or, not)'],
			['in_stock && price < 40', 'syntax error at column 10 (write `and` for `&&`: the words are and, or, not)'],
			['price < 40 | in_stock', 'syntax error at column 12 (write `or` for `|`: the words are and, or, not)'],
			['in_stock AND price < 40', 'syntax error at column 10 (write `and` for `AND`: the words are and, or, not, in lower case)'],
			['in_stock OR price < 40', 'syntax error at column 10 (write `or` for `OR`: the words are and, or, not, in lower case)'],
			['NOT in_stock', 'syntax error at column 5 (write `not` for `NOT`: the words are and, or, not, in lower case)'],
			['!in_stock', 'syntax error at column 1 (write `not` for `!`: the words are and, or, not)'],
			['in_stock and !was_in_stock', 'syntax error at column 14 (write `not` for `!`: the words are and, or, not)'],
			['price = 40', 'syntax error at column 7 (compare with `==`, not `=`)'],
			['not(in_stock)', 'syntax error at column 13 (write a space after `not`: `not (…)`)'],
			['in_stock and(price < 40)', 'syntax error at column 24 (write a space after `and`: `and (…)`)'],
			['in_stock &&', 'syntax error at column 10 (write `and` for `&&`: the words are and, or, not)'],
			['price < 40 or\n  in_stock ||', 'syntax error at line 2, column 12 (write `or` for `||`: the words are and, or, not)'],
		])('%j: the column, and the word meant', (expression, expected) => {
			expect(conditionProblem(expression)).toBe(expected);
		});

		it('leaves what is inside a "string" alone, and adds nothing where no habit is seen', () => {
			expect(conditionProblem('contains(text, "a && b") && in_stock')).toBe('syntax error at column 26 (write `and` for `&&`: the words are and, or, not)');
			expect(conditionProblem('price != 40 and text == "a = b || c"')).toBeUndefined();
			expect(conditionProblem('price <<< 40')).toBe('syntax error at column 8');
			expect(conditionProblem('(price < 40')).toBe('syntax error at column 12 (it ends too soon)');
		});

		it('a name or a function close to a known one: did you mean', () => {
			expect(conditionProblem('instock')).toBe(`unknown name \`instock\` at column 1 (did you mean \`in_stock\`? ${NAMES})`);
			expect(conditionProblem('price < 40 and In_Stock')).toBe(`unknown name \`In_Stock\` at column 16 (did you mean \`in_stock\`? ${NAMES})`);
			expect(conditionProblem('prise < 40')).toBe(`unknown name \`prise\` at column 1 (did you mean \`price\`? ${NAMES})`);
			expect(conditionProblem('changed-words > 3')).toBe(
				`unknown name \`changed\` at column 1 (did you mean \`changed_words\`? \`-\` is a minus here; ${NAMES})`,
			);
			expect(conditionProblem('contain(text, "x")')).toBe(
				'unknown function `contain()` at column 1 (did you mean `contains()`? the functions are abs, ' +
					'ceil, floor, round, sqrt, log, log2, log10, min, max, exists, empty, contains)',
			);
			expect(conditionProblem('NOT(in_stock)')).toBe('unknown function `NOT()` at column 1 (write `not`: the words are and, or, not, in lower case)');
		});
	});
});
