import { createTwoFilesPatch } from 'diff';
import { countedText, type Counted } from './counted.js';
import { prettyJson } from './json-text.js';
import type { PdfText } from './pdf-text.js';
import { ruleFor, type Rule } from './rules.js';

/** A change as a unified diff of the counted content, and its size in lines. */
export interface ContentDiff {
	patch: string;
	added: number;
	removed: number;
	/** `+3 -1`: lines added and removed. */
	summary: string;
}

/**
 * The unified diff between two versions of a URL's body, of what its content rule
 * counts (the decoded body as text when no rule applies; a JSON document pretty-printed
 * with its keys sorted; a PDF's text, read by the caller: `pdf`), with jsdiff
 * (`createTwoFilesPatch`, 3 lines of context).
 *
 * @example
 * diffBodies(rules, url, 'page.html', before, after, 'text/html').summary // '+1 -1'
 */
export function diffBodies(
	rules: readonly Rule[],
	url: string,
	name: string,
	before: Buffer,
	after: Buffer,
	contentType: string | undefined,
	pdf: { before?: PdfText | undefined; after?: PdfText | undefined } = {},
): ContentDiff {
	const rule = ruleFor(rules, url);
	const old = lined(countedText(rule, before, contentType, { url, pdf: pdf.before }));
	const now = lined(countedText(rule, after, contentType, { url, pdf: pdf.after }));
	const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, withNewline(old), withNewline(now), undefined, undefined, { context: 3 });
	let added = 0;
	let removed = 0;
	for (const line of patch.split('\n')) {
		if (line.startsWith('+') && !line.startsWith('+++')) added++;
		else if (line.startsWith('-') && !line.startsWith('---')) removed++;
	}
	return { patch, added, removed, summary: `+${added} -${removed}` };
}

// JSON is counted compact, one value a line: a key a line reads better.
const lined = (counted: Counted): string => (counted.kind === 'json' ? prettyJson(counted.text) : counted.text);

// Line-oriented: a body without line breaks (minified HTML) is one line; tags on lines of their own read better.
const withNewline = (text: string): string => {
	const lined = /\n/.test(text) ? text : text.replace(/>\s*</g, '>\n<');
	return lined.endsWith('\n') ? lined : `${lined}\n`;
};
