import { hashBody } from './hash.js';
import type { ContentHash } from '../task/types.js';
import { countedText, type Counted } from './counted.js';
import { isJsonType } from './json-text.js';
import type { PdfText } from './pdf-text.js';
import type { Rule } from './rules.js';

/**
 * The content hash of a 2xx body under its rule (or of the whole body, when no rule
 * matches the URL), with the rule's id: what the compare stage judges by when rules are on,
 * and for a PDF (`pdf`, its text) or a JSON document always: their counted text is not
 * their bytes. `rawHash`, the body's hash when the caller has it already, is that
 * whole-body hash; `url`, the body's, is what a product rule's offer may depend on (`?variant=`).
 *
 * @example
 * result.content = contentOf(ruleFor(rules, url), body, 'text/html');
 */
export function contentOf(
	rule: Rule | undefined,
	body: Buffer,
	contentType: string | undefined,
	keepText = false,
	rawHash?: string,
	url?: string,
	pdf?: PdfText,
): ContentHash {
	if (!rule && !keepText && pdf === undefined && !isJsonType(contentType)) return { hash: rawHash ?? hashBody(body), rules: '-' };
	return countedContent(countedText(rule, body, contentType, { url, pdf }), rule, body, keepText, rawHash);
}

/**
 * `contentOf` for a body counted already (`countedText`): the hash of its counted text,
 * or of its bytes when it is a PDF whose text could not be read (`why`); the text itself
 * with `keepText`, where there is one.
 *
 * @example
 * const counted = countedText(rule, body, type, { url, pdf });
 * result.content = countedContent(counted, rule, body, false, result.hash);
 */
export function countedContent(counted: Counted, rule: Rule | undefined, body: Buffer, keepText = false, rawHash?: string): ContentHash {
	if (counted.why !== undefined) return { hash: rawHash ?? hashBody(body), rules: rule?.id ?? '-' };
	if (!rule && !keepText && counted.kind === 'none') return { hash: rawHash ?? hashBody(body), rules: '-' };
	const content: ContentHash = { hash: hashText(counted.text), rules: rule?.id ?? '-' };
	if (keepText) content.text = counted.text;
	if (counted.matched) content.matched = true;
	if (counted.kind === 'bytes') content.unreadable = true;
	if (counted.offer) {
		const { from, prices: _prices, ...product } = counted.offer;
		content.product = { ...product, source: from };
		content.offer = counted.offer;
	} else if (rule?.product && counted.kind === 'html') content.noOffer = true;
	return content;
}

/** The content hash of counted text: `hashBody` of its UTF-8 bytes. */
export const hashText = (text: string): string => hashBody(Buffer.from(text));
