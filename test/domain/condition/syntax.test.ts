import { compileExpression } from 'filtrex';
import { describe, expect, it } from 'vitest';
import { errorPosition, namesUsed, symbolUses } from '../../../src/domain/condition/syntax.js';

const positionOf = (expression: string) => {
	try {
		compileExpression(expression);
	} catch (error) {
		return errorPosition(expression, (error as Error).message);
	}
	throw new Error('parsed');
};

describe('namesUsed', () => {
	it('lists names and functions, leaving out keywords and strings', () => {
		expect(namesUsed('contains(text, "price and x") and not in_stock or \'previous_price\' in (1, 2) mod 3')).toEqual({
			names: ['text', 'in_stock', 'previous_price'],
			functions: ['contains'],
		});
		expect(namesUsed('a.b < 1 and x of y')).toEqual({ names: ['a.b', 'x', 'y'], functions: [] });
		expect(namesUsed('not (in_stock)').names).toEqual(['in_stock']);
	});
});

describe('symbolUses', () => {
	it("gives each use's offset, and whether it was in 'single quotes'", () => {
		expect(symbolUses("abs(price) > 1 or 'InStock'")).toEqual([
			{ kind: 'function', text: 'abs', offset: 0, quoted: false },
			{ kind: 'name', text: 'price', offset: 4, quoted: false },
			{ kind: 'name', text: 'InStock', offset: 18, quoted: true },
		]);
	});
});

describe('errorPosition', () => {
	it('finds where filtrex stopped, past its 20-character window and across lines', () => {
		expect(positionOf('price <<< 40')).toEqual({ line: 1, column: 8 });
		expect(positionOf('x == "abc')).toEqual({ line: 1, column: 6 });
		const long = 'changed_words > 3 and changed_words > 3 and changed_words > 3 and ) or x';
		expect(positionOf(long)).toEqual({ line: 1, column: long.indexOf(')') + 1 });
		expect(positionOf('price < 40\nand in_stock\nand (x')).toEqual({ line: 3, column: 7 });
	});

	it('gives up on a message without a caret', () => {
		expect(errorPosition('x', 'Parse error on line 1: Unexpected end of input')).toBeUndefined();
	});
});
