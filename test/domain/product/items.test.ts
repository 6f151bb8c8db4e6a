import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { itemsFound } from '../../../src/domain/product/items.js';
import { scanMarkup } from '../../../src/domain/product/markup.js';
import { MICRODATA } from '../../../src/domain/product/microdata.js';
import type { Candidate } from '../../../src/domain/product/this-product.js';

const read = (html: string) => {
	const markup = scanMarkup(parseDocument(html));
	const candidates: Candidate[] = [];
	const found = itemsFound(markup.itemprops, MICRODATA, candidates, markup.itemscopes);
	return { found, candidates };
};

describe('itemsFound', () => {
	it("names each offer's product with its name, url and itemid, and numbers items by their place in the page", () => {
		const { found, candidates } = read(
			`<div itemscope itemtype="https://schema.org/Product" itemid="#kettle"><span itemprop="name">Kettle</span><link itemprop="url" ` +
				`href="https://shop.example/kettle">
			<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="49"><meta itemprop="sku" content="K-1"></div>` +
				`</div>`,
		);
		expect(candidates.map(({ where, name, ids, other }) => ({ where, name, ids, other }))).toEqual([
			{ where: 'itemscope #1 Product', name: 'Kettle', ids: ['#kettle', 'https://shop.example/kettle'], other: undefined },
		]);
		expect(found.map(({ where, price, keys, product }) => ({ where, price, keys, product: product?.where }))).toEqual([
			{ where: 'itemscope #2 Offer', price: 49, keys: ['K-1', 'https://shop.example/kettle'], product: 'itemscope #1 Product' },
		]);
	});

	it('gives a price marked only by a class that says "regular" as the price, there being no other', () => {
		const { found } = read('<div itemscope itemtype="https://schema.org/Offer"><span class="price--regular"><span itemprop="price">$39.99</span></span></div>');
		expect(found[0]).toMatchObject({ price: 39.99 });
		expect(found[0]?.listPrice).toBeUndefined();
	});
});
