import { describe, expect, it } from 'vitest';
import { countedText } from '../../../src/domain/content/counted.js';
import { compileRules } from '../../../src/domain/content/rules.js';

const html = (price: string, noise: string) =>
	Buffer.from(
		`<html><head><script>var n="${noise}"</script><style>p{}</style></head><body><p>Generated at ${noise}</p><div class="price">Price: ` +
			`${price}</div></body></html>`,
	);
const one = (spec: Parameters<typeof compileRules>[0][number]) => compileRules([spec])[0]!;

describe('countedText', () => {
	it('keeps what the selectors match, and says whether they matched', () => {
		const rule = one({ select: ['.price'] });
		expect(countedText(rule, html('$5', 'a'), 'text/html')).toEqual({ text: '<div class="price">Price: $5</div>', kind: 'html', matched: true });
		expect(countedText(rule, Buffer.from('<p>no price</p>'), 'text/html').matched).toBe(false);
	});

	it('counts the visible text only: no scripts, styles or tags, whitespace collapsed; ignore patterns removed', () => {
		const rule = one({ text: true, ignore: ['Generated at \\S+'] });
		expect(countedText(rule, html('$5', 'x1'), 'text/html').text).toBe('Price: $5');
		expect(countedText(rule, html('$5', 'x2'), 'text/html').text).toBe(countedText(rule, html('$5', 'x1'), 'text/html').text);
	});

	it('reads malformed HTML without throwing', () => {
		expect(countedText(one({ select: ['.price'] }), Buffer.from('<div><p class=price>5<b></div></span>'), 'text/html').text).toBe(
			'<p class="price">5<b></b></p>',
		);
	});

	it('JSON: pointers keep parts, ignore drops keys, key order never counts', () => {
		const rule = one({ pointer: ['/item/price', '/item/name'], ignore: ['^requestId$'] });
		const a = countedText(rule, Buffer.from('{"requestId":"1","item":{"price":5,"name":"x","seen":1}}'), 'application/json');
		expect(a).toEqual({ text: '5\n"x"', kind: 'json' });
		const dropped = one({ ignore: ['^(requestId|at)$'] });
		expect(countedText(dropped, Buffer.from('{"requestId":"1","b":2,"a":{"at":3,"z":1}}'), 'application/json').text).toBe(
			countedText(dropped, Buffer.from('{"a":{"z":1},"b":2,"requestId":"9"}'), 'application/json').text,
		);
		// In values: what a pattern matches is removed from strings.
		const stamped = one({ ignore: ['served at \\d+'] });
		expect(countedText(stamped, Buffer.from('{"note":"ok, served at 1700000000"}'), 'application/json').text).toBe('{"note":"ok, "}');
	});

	it('a body that is neither HTML nor JSON under a rule that needs one is hashed as bytes', () => {
		expect(countedText(one({ select: ['.price'] }), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), 'image/png').kind).toBe('bytes');
		expect(countedText(one({ pointer: ['/a'] }), Buffer.from('not json'), 'application/json').kind).toBe('bytes');
	});

	it('exclude removes the elements it matches before counting, without select', () => {
		const page = (stamp: string) => Buffer.from(`<body><h1>Lamp</h1><span class="ts">Generated ${stamp}</span><p>$5</p></body>`);
		const rule = one({ exclude: ['.ts'] });
		expect(countedText(rule, page('12:00'), 'text/html')).toEqual({ text: '<body><h1>Lamp</h1><p>$5</p></body>', kind: 'html', excluded: 1 });
		expect(countedText(rule, page('12:01'), 'text/html').text).toBe(countedText(rule, page('12:00'), 'text/html').text);
	});

	it('exclude with select: matched against the page as served, so it reaches inside a selected element', () => {
		const page = (now: string, was: string) => Buffer.from(`<p class="price">$${now} <span class="was">was $${was}</span></p><p class="price old">$1</p>`);
		const rule = one({ select: ['.price'], exclude: ['.price .was', '.old'], text: true });
		expect(countedText(rule, page('24.50', '30'), 'text/html')).toEqual({ text: '$24.50', kind: 'html', matched: true, excluded: 2 });
		expect(countedText(rule, page('24.50', '31'), 'text/html').text).toBe('$24.50');
		expect(countedText(rule, page('21.00', '30'), 'text/html').text).toBe('$21.00');
	});

	it('explains each excluded element once, the outermost, in page order', () => {
		const body = Buffer.from(
			`<div id="recent" class="box recent">Recently viewed: <b class="recent">${'Chair, '.repeat(20)}</b></div><p>x</p><i class="ts">12:00</i>`,
		);
		const counted = countedText(one({ exclude: ['.ts', '.recent'] }), body, 'text/html', { explain: true });
		expect(counted.text).toBe('<p>x</p>');
		expect(counted.excluded).toBe(2);
		expect(counted.excerpts).toEqual([`div#recent.box.recent "Recently viewed: ${'Chair, '.repeat(6)}…"`, 'i.ts "12:00"']);
		expect(countedText(one({ exclude: ['.none'] }), body, 'text/html', { explain: true })).toMatchObject({ excluded: 0, excerpts: [] });
	});
});

describe('countedText with a product rule', () => {
	const shoe = (was: string, offers: string) =>
		Buffer.from(
			`<html><head><script type="application/ld+json">{"@type":"Product","name":"Shoe","offers":${offers}}</script></head><body><div itemscope ` +
				`itemtype="https://schema.org/Offer"><del><span itemprop="price">${was}</span></del></div></body></html>`,
		);

	it('counts the price and the availability, not the list price: a list price moving alone is no change', () => {
		const rule = one({ product: true });
		const offers = '{"price":"39.99","priceCurrency":"USD","priceSpecification":{"priceType":"https://schema.org/StrikethroughPrice","price":"59.99"}}';
		const before = countedText(rule, shoe('$59.99', offers), 'text/html');
		expect(before.offer).toEqual({ from: 'json-ld', price: 39.99, listPrice: 59.99, currency: 'USD' });
		const after = countedText(rule, shoe('$69.99', offers.replace('59.99', '69.99')), 'text/html');
		expect(after.offer?.listPrice).toBe(69.99);
		expect(after.text).toBe(before.text);
		expect(after.text).toBe('price: 39.99 USD');
	});

	it("reads the variant the body's URL names", () => {
		const offers = '[{"price":25,"priceCurrency":"USD","url":"/p/shoe?variant=1"},{"price":29,"priceCurrency":"USD","url":"/p/shoe?variant=2"}]';
		const rule = one({ product: true });
		expect(countedText(rule, shoe('', offers), 'text/html').text).toBe('price: 25 USD');
		expect(countedText(rule, shoe('', offers), 'text/html', { url: 'https://shop.example/p/shoe?variant=2' }).text).toBe('price: 29 USD');
	});
});

describe('countedText of documents that are not HTML', () => {
	it('counts a JSON document with its keys sorted when no rule applies, so that their order is no change', () => {
		const a = countedText(undefined, Buffer.from('{"b":1,"a":{"y":2,"x":[1,2]}}'), 'application/json');
		const b = countedText(undefined, Buffer.from('{ "a": { "x": [1, 2], "y": 2 }, "b": 1 }'), 'application/json');
		expect(a).toEqual({ text: '{"a":{"x":[1,2],"y":2},"b":1}', kind: 'json' });
		expect(b).toEqual(a);
		// Not JSON after all: the body as text, as before.
		expect(countedText(undefined, Buffer.from('{oops'), 'application/json')).toEqual({ text: '{oops', kind: 'none' });
	});

	it('counts a PDF by its text (only ignore applies to it), and by nothing but its bytes when its text could not be read', () => {
		const pdf = { text: 'Minutes of 3 May\nPrinted 2026-05-04 10:00\nAgreed: new roof' };
		expect(countedText(undefined, Buffer.from('%PDF-1.4'), 'application/pdf', { pdf })).toEqual({ text: pdf.text, kind: 'pdf' });
		const rule = one({ select: ['.price'], ignore: ['Printed .*'] });
		expect(countedText(rule, Buffer.from('%PDF-1.4'), 'application/pdf', { pdf }).text).toBe('Minutes of 3 May\nAgreed: new roof');
		expect(countedText(undefined, Buffer.from('%PDF-1.4 binary'), 'application/pdf', { pdf: { why: 'encrypted: it needs a password' } })).toEqual({
			text: '',
			kind: 'bytes',
			why: 'encrypted: it needs a password',
		});
	});
});
