import { hashBody } from './hash.js';
import type { ContentHash } from '../types.js';
import { countedText } from './counted.js';
import type { Rule } from './rules.js';

/**
 * The content hash of a 2xx body under its rule (or of the whole body, when no rule
 * matches the URL), with the rule's id: what the compare stage judges by when rules are on.
 * `rawHash`, the body's hash when the caller has it already, is that whole-body hash;
 * `url`, the body's, is what a product rule's offer may depend on (`?variant=`).
 *
 * @example
 * result.content = contentOf(ruleFor(rules, url), body, 'text/html');
 */
export function contentOf(rule: Rule | undefined, body: Buffer, contentType: string | undefined, keepText = false, rawHash?: string, url?: string): ContentHash {
	if (!rule && !keepText) return { hash: rawHash ?? hashBody(body), rules: '-' };
	const counted = countedText(rule, body, contentType, { url });
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
