import { describe, expect, it } from 'vitest';
import { compileCondition, conditionProblem } from '../../../src/domain/condition/compile.js';
import { sizeProblem } from '../../../src/domain/condition/limits.js';

describe('condition size bounds', () => {
	// Filtrex took over two minutes on these before refusing them.
	it('refuses 100,000 nested parentheses at once, naming the bound and the column', { timeout: 10_000 }, () => {
		const expression = `${'('.repeat(100_000)}price < 40${')'.repeat(100_000)}`;
		expect(conditionProblem(expression)).toBe('nested deeper than 64 parentheses at column 65');
		expect(() => compileCondition(expression)).toThrow(/^--when: nested deeper than 64 parentheses at column 65: \(+…$/);
	});

	it('takes 64 nested parentheses, and counts none inside strings', () => {
		expect(conditionProblem(`${'('.repeat(64)}price < 40${')'.repeat(64)}`)).toBeUndefined();
		expect(conditionProblem(`contains(text, "${'('.repeat(100)}")`)).toBeUndefined();
		expect(sizeProblem('(price < 40 or\n((((((')).toBeUndefined();
		expect(sizeProblem(`price < 40 or\n${'('.repeat(70)}`)).toBe('nested deeper than 64 parentheses at line 2, column 65');
	});

	it("refuses an expression past 4,096 characters, or past 256 operators (a chain overflowed the parser's stack)", () => {
		expect(conditionProblem(`contains(text, "${'x'.repeat(5000)}")`)).toBe('longer than 4096 characters (it has 5018)');
		expect(conditionProblem(`1${'+1'.repeat(2000)} > 0`)).toBe('more than 256 operators at column 514');
		expect(conditionProblem(`${'not '.repeat(1000)}in_stock`)).toBe('more than 256 operators at column 1025');
		expect(conditionProblem(`1${'+1'.repeat(200)} > 0`)).toBeUndefined();
	});
});
