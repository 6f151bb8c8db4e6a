import { describe, expect, it } from 'vitest';
import { htmlDifferences, maskHtml } from '../../../src/domain/content/noise-html.js';

const page = (ad: string, price = '5', nonce = 'n1') =>
	`<html><body><main class="product"><p class="price">$${price}</p><aside class="ad">${ad}</aside><script nonce="${nonce}">x()</script></main></body></html>`;

describe('structural noise in HTML', () => {
	it('learns a rotating block whole, whatever it holds next time, and an attribute alone', () => {
		const places = htmlDifferences(page('Gym offer', '5', 'n1'), page('<b>Cheap</b> flights', '5', 'n2'));
		expect(places.sort()).toEqual(['html>body>main.product>aside.ad', 'html>body>main.product>script@nonce']);
		const masked = (text: string) => maskHtml(text, places);
		expect(masked(page('New <i>shoes</i> sale', '5', 'n3'))).toBe(masked(page('Gym offer')));
		// The price is outside the learned places: its change shows, with the noise changing too.
		expect(masked(page('Learn Spanish fast', '6', 'n4'))).not.toBe(masked(page('Gym offer')));
	});

	it('learns only the text that differs when an element child beside it is the same', () => {
		const places = htmlDifferences('<div class="box"><p class="price">5</p> at 09:14</div>', '<div class="box"><p class="price">5</p> at 09:15</div>');
		expect(places).toEqual(['div.box>#text']);
	});

	it('never learns the page itself, an element holding most of its text, or (under select) what was selected', () => {
		expect(htmlDifferences('<html><body>one</body></html>', '<html><body>two</body></html>')).toEqual(['html>body>#text']);
		expect(htmlDifferences('<main><p>a long text that is the page</p></main><i>x</i>', '<main><p>another long text, the page</p></main><i>x</i>')).toEqual([
			'main>p>#text',
		]);
		expect(htmlDifferences('<p class="price">5</p>', '<p class="price">6</p>', true)).toEqual([]);
		expect(
			htmlDifferences(
				'<p class="price">Price: 5 dollars<span class="t">09:14</span></p>',
				'<p class="price">Price: 5 dollars<span class="t">09:15</span></p>',
				true,
			),
		).toEqual(['p.price>span.t']);
	});

	it('places elements by class, so a line present on one page only does not move the others', () => {
		const places = ['main>p.when'];
		expect(maskHtml('<main><p class="stock">3 left</p><p class="when">09:14</p></main>', places)).toBe('<main><p class="stock">3 left</p></main>');
		expect(maskHtml('<main><p class="when">09:14</p></main>', places)).toBe('<main></main>');
	});
});
