import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { readOffer } from '../../src/product/offer.js';
import { corpusDir, readCorpus, readTruth } from '../helpers/product-corpus.js';

/**
 * The corpus pages the offer reader gets wrong today, and how (issue 37). Whoever fixes one
 * removes its line: the page is then tested to pass, and `it.fails` here fails once it does.
 */
const KNOWN_WRONG = new Map([
	['amazon.co.uk-1.html.gz', 'no structured data: no offer, where the page shows "Buy used £4.45" and Add to Basket'],
	['amazon.com-1.html.gz', 'no structured data: no offer, where the page shows "Kindle Price: $10.99" and Buy now'],
	['amazon.com-2.html.gz', 'no structured data: no offer, where the page shows $8.99 (List Price $29.99 struck through) and In Stock'],
	['bookwalker.jp-1.html', 'no structured data: no offer, where the page shows 価格 1,320 円 (税込)'],
	['lavazza.de-1.html', 'JSON-LD says InStock without a price; the page says "Produkt nicht verfügbar": reads InStock'],
	['toralin.de-1.html', 'microdata price is without VAT: reads 4.92 where the page shows "Inkl. MwSt (21%): 5,95 €"'],
	['uniqz.de-1.html', 'availability only in the page (an enabled "In den Warenkorb" button): reads none'],
]);

// The sweep reads the offer from the parsed body (src/content/counted.ts): so does this test.
const read = (html: string) => {
	const offer = readOffer(parseDocument(html));
	return { price: offer?.price, currency: offer?.currency, availability: offer?.availability };
};

const dir = corpusDir();
const pages = dir ? readCorpus(dir) : [];
if (!dir) console.warn('skipping "the real-page product corpus": its pages are not here (set REVISIT_PRODUCT_CORPUS, or see test/fixtures/product-corpus/README.md)');

describe.skipIf(!dir)('the real-page product corpus (test/fixtures/product-corpus)', () => {
	it('lists only pages that are in truth.json', () => {
		const files = new Set(readTruth().map((truth) => truth.file));
		expect([...KNOWN_WRONG.keys()].filter((file) => !files.has(file))).toEqual([]);
	});

	for (const { truth, html } of pages) {
		const expected = { price: truth.price ?? undefined, currency: truth.currency ?? undefined, availability: truth.availability ?? undefined };
		const wrong = KNOWN_WRONG.get(truth.file);
		if (wrong) it.fails(`${truth.file}: known wrong (${wrong})`, () => expect(read(html)).toEqual(expected));
		else it(`${truth.file}: ${truth.markup}, ${truth.price ?? 'no'} ${truth.currency ?? ''} ${truth.availability ?? ''}`, () => expect(read(html)).toEqual(expected));
	}
});
