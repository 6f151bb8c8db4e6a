import { describe, expect, it } from 'vitest';
import { bytesMoved, sourceParts } from '../../../src/domain/content/source-parts.js';
import { visibleTextOf } from '../../../src/domain/content/visible-text.js';
import { parseHtml } from '../../../src/domain/html/parse.js';

const partsOf = (html: string): string => {
	const document = parseHtml(html);
	return sourceParts(document, visibleTextOf(document), Buffer.byteLength(html));
};

const page = ({ script = 'go(1)', style = 'p{color:red}', cls = 'a', comment = 'built 1', text = 'Hello there', tag = 'p', space = ' ' } = {}): string =>
	`<!doctype html><html><head><style>${style}</style></head><body><!--${comment}--><${tag} class="${cls}">${text}</${tag}>${space}<script>` +
	`${script}</script></body></html>`;

describe('sourceParts and bytesMoved', () => {
	it('names each part of the source that moved while the text did not, with the size before and after', () => {
		const base = partsOf(page());
		expect(bytesMoved(base, partsOf(page({ script: 'go(12)' })))).toBe(
			`the text is the same; the bytes changed: ${Buffer.byteLength(page())} → ${Buffer.byteLength(page()) + 1} bytes, in the scripts`,
		);
		expect(bytesMoved(base, partsOf(page({ cls: 'b' })))).toBe(
			`the text is the same; the bytes changed: ${Buffer.byteLength(page())} bytes before and after, in the attributes`,
		);
		expect(bytesMoved(base, partsOf(page({ style: 'p{color:blue}', comment: 'built 2' })))).toMatch(/, in the styles and the comments$/);
		expect(bytesMoved(base, partsOf(page({ tag: 'div', script: 'go(2)', cls: 'c' })))).toMatch(/, in the scripts, the attributes and the tags$/);
		expect(bytesMoved(base, partsOf(page({ space: '\n\n' })))).toMatch(/, only in whitespace or in text a reader does not see$/);
	});

	it('says nothing where the text moved, or a fingerprint is not one', () => {
		expect(bytesMoved(partsOf(page()), partsOf(page({ text: 'Hello here' })))).toBeUndefined();
		expect(bytesMoved('12 abc', partsOf(page()))).toBeUndefined();
	});

	it('is a short line: the size and six hashes of 8 characters', () => {
		expect(partsOf(page())).toMatch(/^\d+( [\w-]{8}){6}$/);
	});
});
