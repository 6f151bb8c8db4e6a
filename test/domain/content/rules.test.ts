import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compileRules, selectorProblem, type RuleSpec } from '../../../src/domain/content/rules.js';

const idOf = (spec: RuleSpec) => compileRules([spec])[0]!.id;

describe('compileRules', () => {
	it('gives a rule a new id when its exclude selectors change, so a stored hash is rebaselined', () => {
		const ids = [{ select: ['.price'] }, { select: ['.price'], exclude: ['.was'] }, { select: ['.price'], exclude: ['.old'] }, { exclude: ['.was'] }].map(idOf);
		expect(new Set(ids).size).toBe(4);
		expect(idOf({ select: ['.price'], exclude: ['.was'] })).toBe(ids[1]);
	});

	it('keeps the id of a rule without exclude as it was, so upgrading rebaselines nothing', () => {
		const before = createHash('sha1')
			.update(JSON.stringify([['.price'], true, ['\\d+'], []]))
			.digest('hex')
			.slice(0, 12);
		expect(idOf({ select: ['.price'], text: true, ignore: ['\\d+'] })).toBe(before);
	});

	it('refuses a match that is a word without a dot (a library caller too): it would match no URL', () => {
		expect(() => compileRules([{ match: 'shop.example' }, { match: 'fusion-backpack', select: ['.price'] }], 'rules.json')).toThrow(
			'rules.json 2: match "fusion-backpack": a word without a dot reads as a host name, and no host is named "fusion-backpack": ' +
				'it would match nothing. For the URLs that hold the word, write a regular expression',
		);
		const [path, host, local] = compileRules([{ match: '/fusion-backpack' }, { match: 'shop.example' }, { match: 'localhost' }]);
		expect(path!.matches('https://shop.example/p/fusion-backpack')).toBe(true);
		expect(host!.matches('https://shop.example/p/fusion-backpack')).toBe(true);
		expect(local!.matches('http://localhost:8080/')).toBe(true);
	});

	it('refuses a bad exclude selector, naming the rule, the field and the whole message', () => {
		expect(() => compileRules([{ select: ['.a'] }, { exclude: ['.ok', '.price['] }], 'rules.json')).toThrow(
			'rules.json 2: exclude ".price[" is not a CSS selector: Expected name, found the end of the selector',
		);
	});
});

describe('product rules', () => {
	it('are rules of their own id, which moves with their selectors', () => {
		const ids = [{}, { product: true }, { price: ['.cost'] }, { product: true, availability: ['.stock'] }].map(idOf);
		expect(new Set(ids).size).toBe(4);
		// --price implies --product: the same rule either way.
		expect(idOf({ product: true, price: ['.cost'] })).toBe(ids[2]);
		expect(compileRules([{ price: ['.cost'] }])[0]!.product?.price?.map((selector) => selector.source)).toEqual(['.cost']);
	});

	it('refuse what a product rule cannot count, and a bad price selector, naming the field', () => {
		expect(() => compileRules([{ product: true, select: ['.price'] }])).toThrow(
			"rule 1: a product rule counts the page's offer, so select has nothing to count",
		);
		expect(() => compileRules([{ product: true, text: true }])).toThrow('so text has nothing to count');
		expect(() => compileRules([{ price: ['.cost['] }], 'rules.json')).toThrow('rules.json 1: price ".cost[" is not a CSS selector');
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
