import { describe, expect, it } from 'vitest';
import { isHtml, visibleText } from '../../../src/domain/content/visible-text.js';

describe('visibleText', () => {
	it('gives one block a line: title, headings, paragraphs, list items, link and alt text', () => {
		const html = `<!doctype html><html><head><title>Harbour news</title><style>p{color:red}</style><script>var x = "<p>not text</p>";</script></head>
<body><nav><a href="/">Home</a></nav><h1>Council   news</h1><p>The council <a href="/b">agreed</a> the <b>budget</b>.</p>
<ul><li>First</li><li>Second <img src="x.png" alt="a chart"></li></ul><noscript>enable js</noscript><div>Last<br>line</div></body></html>`;
		expect(visibleText(html)).toBe(
			['Harbour news', 'Home', 'Council news', 'The council agreed the budget.', 'First', 'Second [a chart]', 'Last', 'line'].join('\n'),
		);
	});

	it('leaves out markup attributes entirely, so that a changed class or href is no change in the text', () => {
		expect(visibleText('<p class="a" data-x="1">Same <a href="/one">words</a></p>')).toBe(
			visibleText('<p class="b"><span>Same </span><a href="/two">words</a></p>'),
		);
	});

	it('tells HTML by its type, or by its first character when there is none', () => {
		expect(isHtml('text/html; charset=utf-8', 'x')).toBe(true);
		expect(isHtml(undefined, '  <p>hi</p>')).toBe(true);
		expect(isHtml('application/json', '<p>')).toBe(false);
		expect(isHtml('text/plain', 'plain')).toBe(false);
	});
});
