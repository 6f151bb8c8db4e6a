import { describe, expect, it } from 'vitest';
import { compileStockPhrases, MEANINGS, phraseKey, STOCK_LANGUAGES } from '../../../src/domain/product/stock-phrases.js';
import { fold } from '../../../src/domain/product/page/words.js';
import { readPhrase, STOCK_PHRASES, traced } from '../../helpers/stock-phrase-pages.js';

/** The languages issue 47 asks for: Chinese in both scripts. */
const LANGUAGES = [
	'en',
	'de',
	'fr',
	'es',
	'it',
	'nl',
	'pt',
	'pl',
	'sv',
	'da',
	'nb',
	'fi',
	'cs',
	'sk',
	'hu',
	'ro',
	'tr',
	'ru',
	'uk',
	'el',
	'ja',
	'zh-CN',
	'zh-TW',
	'ko',
	'id',
	'ar',
	'he',
];

describe('the stock phrase data', () => {
	it('has a file for each language, each phrase with a meaning and where it was seen', () => {
		expect(STOCK_LANGUAGES.map((language) => language.language).sort()).toEqual([...LANGUAGES].sort());
		for (const language of STOCK_LANGUAGES) {
			for (const phrase of language.phrases) {
				expect(MEANINGS, `${language.language} ${phrase.text}`).toContain(phrase.means);
				expect(phrase.seen.length, `${language.language} ${phrase.text}`).toBeGreaterThan(10);
			}
			const meanings = new Set(language.phrases.map((phrase) => phrase.means));
			for (const needed of ['in', 'out', 'cta', 'preorder', 'limited']) expect(meanings, `${language.language} has no ${needed} phrase`).toContain(needed);
			expect(meanings.has('negator') || meanings.has('negator-after'), `${language.language} has no negator`).toBe(true);
		}
	});

	it('compiles into the patterns a statement is read with', () => {
		const patterns = compileStockPhrases(STOCK_LANGUAGES.filter((language) => language.language === 'tr'));
		expect('stokta'.match(patterns.states)).toEqual(['stokta']);
		expect(patterns.stateOf.get(phraseKey('stokta yok'))).toBe('out');
		expect(patterns.negatedAfter.test(fold(' değil'))).toBe(true);
		expect('in stock'.match(patterns.states)).toBeNull();
	});
});

describe('the stock phrase set (test/fixtures/stock-phrases), each under the price of a product page without structured data', () => {
	const results = STOCK_PHRASES.map((phrase) => ({ phrase, alone: readPhrase(phrase), beside: readPhrase(phrase, true) }));

	it('holds at least 300 phrases from shops and shop themes in every language asked, each with its source', () => {
		expect(STOCK_PHRASES.length).toBeGreaterThanOrEqual(300);
		expect([...new Set(STOCK_PHRASES.map((phrase) => phrase.language))].sort()).toEqual([...LANGUAGES].sort());
		for (const phrase of STOCK_PHRASES) expect(phrase.seen.length, phrase.text).toBeGreaterThan(10);
		// Not the themes' strings alone: sentences, product names, capitals, punctuation.
		expect(STOCK_PHRASES.filter((phrase) => phrase.variant).length).toBeGreaterThanOrEqual(300);
	});

	it('reads at least 95% of them right, and no phrase that says the product cannot be had now as InStock', () => {
		const right = results.filter(({ phrase, alone }) => alone === phrase.expect);
		const wrongInStock = results
			.filter(({ phrase, alone }) => phrase.expect !== 'InStock' && phrase.expect !== null && alone === 'InStock')
			.map(({ phrase }) => phrase.text);
		expect(right.length / results.length).toBeGreaterThanOrEqual(0.95);
		expect(wrongInStock).toEqual([]);
	});

	it('reads them right above an enabled buy button too: the stock words, nearer and more specific, win over it', () => {
		const right = results.filter(({ phrase, beside }) => beside === (phrase.expect ?? 'InStock'));
		expect(right.length / results.length).toBeGreaterThanOrEqual(0.95);
		// Every phrase read right alone that says the product cannot be had now says so beside the button.
		const lost = results
			.filter(({ phrase, alone, beside }) => alone === phrase.expect && phrase.expect !== 'InStock' && phrase.expect !== null && beside !== alone)
			.map(({ phrase }) => phrase.text);
		expect(lost).toEqual([]);
	});

	it(
		"holds at least 300 that name their source (a platform's translation file, a shop's page), in every language asked, " +
			'and reads at least 95% of those right, none that says the product cannot be had as InStock',
		() => {
			const named = results.filter(({ phrase }) => traced(phrase));
			expect(named.length).toBeGreaterThanOrEqual(300);
			expect([...new Set(named.map(({ phrase }) => phrase.language))].sort()).toEqual([...LANGUAGES].sort());
			for (const { phrase } of named)
				expect(phrase.seen, phrase.text).toMatch(/^(github:[\w.-]+\/[\w.-]+(@[0-9a-f]{7,40})? \S|https:\/\/|a page of the product corpus|amazon\.com)/);
			const right = named.filter(({ phrase, alone }) => alone === phrase.expect);
			const wrongInStock = named
				.filter(({ phrase, alone }) => phrase.expect !== 'InStock' && phrase.expect !== null && alone === 'InStock')
				.map(({ phrase }) => phrase.text);
			expect(right.length / named.length).toBeGreaterThanOrEqual(0.95);
			expect(wrongInStock).toEqual([]);
		},
	);

	it('reads at least 80% right in each language', () => {
		for (const language of LANGUAGES) {
			const its = results.filter(({ phrase }) => phrase.language === language);
			const right = its.filter(({ phrase, alone }) => alone === phrase.expect);
			expect(
				right.length / its.length,
				`${language}: ${its
					.filter(({ phrase, alone }) => alone !== phrase.expect)
					.map(({ phrase, alone }) => `${phrase.text} → ${alone}`)
					.join('; ')}`,
			).toBeGreaterThanOrEqual(0.8);
		}
	});
});
