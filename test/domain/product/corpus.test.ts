import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { readOffer } from '../../../src/domain/product/offer.js';
import { corpusDir, readCorpus, readTruth } from '../../helpers/product-corpus.js';

/**
 * The corpus pages the offer reader gets wrong today, and how (issue 37). Whoever fixes one
 * removes its line: the page is then tested to pass, and `it.fails` here fails once it does.
 */
const KNOWN_WRONG = new Map([
	['1000bulbs.com-1.html', "reads availability 'InStock' (truth null)"],
	['bookwalker.jp-1.html', "reads availability 'InStock' (truth null)"],
	['brooklynbrewshop.com-1.html', "reads currency null (truth 'USD')"],
	['cafepress.com-1.html', "reads availability 'InStock' (truth null)"],
	['lavazza.de-1.html', "reads availability 'InStock' (truth 'OutOfStock')"],
	['shop.dunkindonuts.com-1.html', 'reads price 17.98 (truth 8.99)'],
	['toralin.de-1.html', 'reads price 4.92 (truth 5.95)'],
]);

// The sweep reads the offer from the parsed body, with the page's URL (src/domain/content/counted.ts): so does this test.
const read = (html: string, url: string | null) => {
	const offer = readOffer(parseDocument(html), url === null ? {} : { url });
	return { price: offer?.price, currency: offer?.currency, availability: offer?.availability };
};

const dir = corpusDir();
const pages = dir ? readCorpus(dir) : [];
if (!dir)
	console.warn('skipping "the real-page product corpus": its pages are not here (set REVISIT_PRODUCT_CORPUS, or see test/fixtures/product-corpus/README.md)');

describe.skipIf(!dir)('the real-page product corpus (test/fixtures/product-corpus)', () => {
	it('lists only pages that are in truth.json', () => {
		const files = new Set(readTruth().map((truth) => truth.file));
		expect([...KNOWN_WRONG.keys()].filter((file) => !files.has(file))).toEqual([]);
	});

	for (const { truth, html } of pages) {
		const expected = { price: truth.price ?? undefined, currency: truth.currency ?? undefined, availability: truth.availability ?? undefined };
		const wrong = KNOWN_WRONG.get(truth.file);
		if (wrong) it.fails(`${truth.file}: known wrong (${wrong})`, () => expect(read(html, truth.url)).toEqual(expected));
		else
			it(`${truth.file}: ${truth.markup}, ${truth.price ?? 'no'} ${truth.currency ?? ''} ${truth.availability ?? ''}`, () =>
				expect(read(html, truth.url)).toEqual(expected));
	}
});
