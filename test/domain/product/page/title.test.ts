import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { scanPage } from '../../../../src/domain/product/page/scan.js';
import { pageTitle, productTitle } from '../../../../src/domain/product/page/title.js';
import { readOffer } from '../../../../src/domain/product/offer.js';

const titleOf = (html: string) => {
	const document = parseDocument(html);
	const title = productTitle(scanPage(document).titles, pageTitle(document));
	return title && title.element.children.map((child) => ('data' in child ? child.data : '')).join('');
};

describe('productTitle', () => {
	it("takes the <h1> the page's <title> names, not a pop-over's or a logo's before it", () => {
		const head = '<head><title>The Whole Truth (A. Shaw Book 1) - Kindle edition by Baldacci, David. Mystery eBooks @ Amazon.com.</title></head>';
		expect(
			titleOf(
				`<html>${head}<body><div class="a-popover-preload"><h1>Buying and sending eBooks to others</h1></div><h1>Follow the author</h1><div ` +
					`id="centerCol"><h1 id="title">The Whole Truth (A. Shaw Book 1) Kindle Edition</h1></div></body></html>`,
			),
		).toBe('The Whole Truth (A. Shaw Book 1) Kindle Edition');
		expect(
			titleOf(
				'<html><head><title>Street Fighter V – PS4</title></head><body><h1>GameXchange | ' +
					'Trade in Games or Sell Games for Cash</h1><h1>Street Fighter V</h1></body></html>',
			),
		).toBe('Street Fighter V');
		// og:title before <title>; the longest <h1> it holds (a logo's "Shop" is in it too).
		expect(
			titleOf(
				'<html><head><title>x</title><meta property="og:title" content="Kettle 1.7 l | Shop"></head><body><h1>Shop</h1><h1>Kettle 1.7 l</h1></body></html>',
			),
		).toBe('Kettle 1.7 l');
	});

	it('takes the first where the title names none, or there is one', () => {
		expect(titleOf('<html><head><title>Welcome</title></head><body><h1>Kettle</h1><h1>Reviews</h1></body></html>')).toBe('Kettle');
		expect(titleOf('<html><body><h1>Kettle</h1><h1>Reviews</h1></body></html>')).toBe('Kettle');
	});
});

describe('the page source with the product title found', () => {
	it('reads the buy box price beside the title the page names, not a format pop-over before a stray <h1>', () => {
		const html = `<html><head><title>The Whole Truth - Kindle edition by Baldacci</title></head><body>
			<div id="dp"><div id="leftCol"><div class="a-popover-preload"><h1>Buying and sending eBooks to others</h1>
			<a class="format-entry">Audio CD from $2.23</a></div></div>
			<div id="centerCol"><h1 id="title">The Whole Truth Kindle Edition</h1></div>
			<div id="rightCol"><div id="buybox"><table><tr><td>Kindle Price:</td><td><span id="kindle-price" class="a-color-price">$10.99</span></td></tr></table>
			<input id="one-click-button" type="submit" value="Buy now with 1-Click"></div></div></div>
			<div id="reviews"><a class="a-link-normal" href="/r/1">Verified Purchase</a></div></body></html>`;
		expect(readOffer(parseDocument(html))).toMatchObject({ from: 'page', price: 10.99, availability: 'InStock' });
	});
});
