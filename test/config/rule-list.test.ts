import { describe, expect, it } from 'vitest';
import { validateRules } from '../../src/config/rule-list.js';
import { ConfigError } from '../../src/base/errors/index.js';

/** The problems a rule list has, as printed. */
function problems(text: string): readonly string[] {
	try {
		validateRules(text, 'rules.json');
		return [];
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		return error.problems;
	}
}

describe('validateRules', () => {
	it('takes exclude selectors, with or without select', () => {
		expect(validateRules('[{ "select": [".price"], "exclude": [".price .was"] }, { "exclude": [".ts", "#recent"] }]', 'rules.json')).toEqual([
			{ select: ['.price'], exclude: ['.price .was'] },
			{ exclude: ['.ts', '#recent'] },
		]);
	});

	it('names the file, line and column of each bad selector, pattern and pointer, all in one pass, with the whole parser message', () => {
		const text = '[\n  { "select": [".price["] },\n  { "exclude": [".ok", "a:nope"], "ignore": ["(x"] },\n  { "pointer": ["no-slash"], "exclude": [] }\n]';
		expect(problems(text)).toEqual([
			'rules.json:2:16: /0/select/0: must be a CSS selector (got ".price[": Expected name, found the end of the selector)',
			'rules.json:3:24: /1/exclude/1: must be a CSS selector (got "a:nope": Unknown pseudo-class :nope)',
			'rules.json:3:46: /1/ignore/0: must be a regular expression (got "(x": /(x/: Unterminated group)',
			'rules.json:4:17: /2/pointer/0: must be a JSON Pointer: empty, or starting with / (RFC 6901) (got "no-slash")',
			'rules.json:4:41: /2/exclude: must list at least one exclude',
		]);
	});

	it('refuses a match that is a word without a dot, which would be read as a host no one has, saying what to write', () => {
		const text = '[\n  { "match": "shop.example", "select": [".price"] },\n  { "match": "fusion-backpack", "select": [".price"] }\n]';
		expect(problems(text)).toEqual([
			'rules.json:3:14: /1/match: must be a hostname or a regular expression (got "fusion-backpack": ' +
				'a word without a dot reads as a host name, and no host is named "fusion-backpack": it would match nothing. ' +
				('For the URLs that hold the word, write a regular expression, searched for anywhere in the URL: ' +
					'"/fusion-backpack" or "fusion-backpack$"; for a site, its host name in full: "shop.example")'),
		]);
	});

	it('takes what a match can mean: a host with its dot, localhost, a regular expression', () => {
		for (const match of ['shop.example', '127.0.0.1', 'localhost', '/fusion-backpack', 'fusion-backpack$', '^https://news\\.example/', 'item/\\d+']) {
			expect(problems(JSON.stringify([{ match, select: ['.price'] }])), match).toEqual([]);
		}
	});
});
