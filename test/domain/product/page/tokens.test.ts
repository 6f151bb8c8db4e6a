import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { readOffer } from '../../../../src/domain/product/offer.js';
import { withoutTokens } from '../../../../src/domain/product/page/tokens.js';

describe('withoutTokens', () => {
	it('blanks words that glue letters and digits, but not an amount glued to its currency', () => {
		expect(withoutTokens('session 3-ab4kr12xyz')).toBe('session 3- ');
		expect(withoutTokens('nonce 6m6p1sar2aw and 0eur5')).toBe('nonce   and  ');
		expect(withoutTokens('Model X200 now 199kr')).toBe('Model   now 199kr');
		expect(withoutTokens('12,50zł or USD12 or €12 or 19.99 $')).toBe('12,50zł or USD12 or €12 or 19.99 $');
	});

	it("keeps a token that changes on every fetch from ever being read as a page's price", () => {
		// Tokens drawn as a page's session id is (base 36): before, about 1 in 250 gave an offer (`kr5hd…` read as 5 kr, `…sar2…` as 2 SAR).
		const tokens = ['ab4kr12xyz', 'mkd2oz2kl5', '6m6p1sar2aw', '50nmytf6isk', 'kr5hdhykrmj', 'usd19q', '0eur5'];
		for (const token of tokens) {
			const page = `<html><body><h1>A trip to the sea</h1><article><p>We went to the sea.</p><p class="session">session 3-${token}</p></article></body></html>`;
			expect(readOffer(parseDocument(page)), token).toBeUndefined();
		}
		// A price glued to its currency still reads.
		expect(readOffer(parseDocument('<html><body><h1>Ullvante</h1><p class="pris">199kr</p><button>Köp</button></body></html>'))).toMatchObject({ price: 199 });
	});
});
