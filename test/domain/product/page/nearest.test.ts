import type { Element } from 'domhandler';
import { findAll } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { inside, nearestPlace, treeDistance } from '../../../../src/domain/product/page/nearest.js';

const document = parseDocument(
	'<main><div id="p"><h1 id="t">Kettle</h1><p><span id="a">$10</span></p></div><div id="r"><div><span id="b">$5</span></div></div></main>',
);
const byId = (id: string) => findAll((element) => element.attribs['id'] === id, document.children)[0] as Element;
const place = (id: string, index: number) => ({ element: byId(id), index });

describe('nearest', () => {
	it('measures how far apart two elements are in the tree', () => {
		expect(treeDistance(byId('t'), byId('a'))).toBe(3);
		expect(treeDistance(byId('t'), byId('b'))).toBe(5);
		expect(inside(byId('a'), byId('p'))).toBe(true);
		expect(inside(byId('b'), byId('p'))).toBe(false);
	});

	it('takes the place nearest the anchors, a penalty added; the first in page order with no anchors', () => {
		const title = place('t', 1);
		expect(nearestPlace([place('b', 6), place('a', 3)], [title])?.element).toBe(byId('a'));
		expect(nearestPlace([place('b', 6), place('a', 3)], [title], (item) => (item.index === 3 ? 9 : 0))?.element).toBe(byId('b'));
		expect(nearestPlace([place('b', 6), place('a', 3)], [])?.element).toBe(byId('a'));
		expect(nearestPlace([], [title])).toBeUndefined();
	});
});
