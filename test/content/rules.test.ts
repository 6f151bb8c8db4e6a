import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compileRules, selectorProblem, type RuleSpec } from '../../src/content/rules.js';

const idOf = (spec: RuleSpec) => compileRules([spec])[0]!.id;

describe('compileRules', () => {
	it('gives a rule a new id when its exclude selectors change, so a stored hash is rebaselined', () => {
		const ids = [{ select: ['.price'] }, { select: ['.price'], exclude: ['.was'] }, { select: ['.price'], exclude: ['.old'] }, { exclude: ['.was'] }].map(idOf);
		expect(new Set(ids).size).toBe(4);
		expect(idOf({ select: ['.price'], exclude: ['.was'] })).toBe(ids[1]);
	});

	it('keeps the id of a rule without exclude as it was, so upgrading rebaselines nothing', () => {
		const before = createHash('sha1').update(JSON.stringify([['.price'], true, ['\\d+'], []])).digest('hex').slice(0, 12);
		expect(idOf({ select: ['.price'], text: true, ignore: ['\\d+'] })).toBe(before);
	});

	it('refuses a bad exclude selector, naming the rule, the field and the whole message', () => {
		expect(() => compileRules([{ select: ['.a'] }, { exclude: ['.ok', '.price['] }], 'rules.json')).toThrow('rules.json 2: exclude ".price[" is not a CSS selector: Expected name, found the end of the selector');
	});
});

describe('selectorProblem', () => {
	it.each([
		['.price[', 'Expected name, found the end of the selector'],
		['a:nope', 'Unknown pseudo-class :nope'],
		['a,', 'Empty sub-selector'],
		['  ', 'an empty selector matches nothing'],
		['.price .was', undefined],
	])('%j: %s', (selector, problem) => {
		expect(selectorProblem(selector)).toBe(problem);
	});
});
