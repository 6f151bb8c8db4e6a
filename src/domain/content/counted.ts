import render from 'dom-serializer';
import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { removeElement, removeSubsets, textContent, uniqueSort } from 'domutils';
import { parseHtml } from '../html/parse.js';
import type { Rule } from './rules.js';
import type { Offer } from '../../store/model/product.js';
import { offerText } from './offer-text.js';
import { explainOffer, readOffer, type Explained } from '../product/offer.js';
import { parseWithMarkup } from '../product/parse.js';
import { isJsonType } from './json-text.js';
import { pdfLines, type PdfText } from './pdf-text.js';

/** What a rule kept of one body, and how it read it. */
export interface Counted {
	/** The counted content: what is hashed, and what a diff shows. */
	text: string;
	/**
	 * `html` or `json` when the body was read so; `pdf` for a PDF's text; `bytes` when a rule
	 * could not read the body, or a PDF's text could not be read (hashed as they are); `none`
	 * for the body as text.
	 */
	kind: 'html' | 'json' | 'pdf' | 'bytes' | 'none';
	/** A PDF whose text could not be read: why (its bytes are what counts, and its text is empty). */
	why?: string | undefined;
	/** A `select` rule: did any selector match? */
	matched?: boolean | undefined;
	/** An `exclude` rule: how many elements its selectors removed. */
	excluded?: number | undefined;
	/** With `explain`: a short excerpt of each removed element, in document order. */
	excerpts?: string[] | undefined;
	/** A product rule: the offer read from the page (absent when it has none). */
	offer?: Offer | undefined;
	/** A product rule with `explain`: what each markup gave, read from the page as counted (exclusions applied). */
	explained?: Explained | undefined;
}

/** What `countedText` reports besides the text. */
export interface CountOptions {
	/** Describe each excluded element (`revisit rules test`); a sweep does not need it. */
	explain?: boolean | undefined;
	/** The URL the body came from: a product rule's offer may depend on it (`?variant=`, the product whose `url` it is). */
	url?: string | undefined;
	/** The body is a PDF, and this is its text as domain/content/pdf-text.ts read it (the caller reads it: that takes a child process). */
	pdf?: PdfText | undefined;
}

const HIDDEN = new Set(['script', 'style', 'noscript', 'template']);

/**
 * The counted content of a body under a rule: the elements its selectors match (or the
 * visible text), or the parts of a JSON document its pointers name, with the `ignore`
 * patterns' matches removed; the decoded body as UTF-8 text when there is no rule. A
 * JSON document counts with its keys sorted, rule or not, so that their order is no
 * change; a PDF counts by its text (`options.pdf`), rule or not (only `ignore` applies to
 * it), or, when that could not be read, by its bytes (`why` says why).
 * Malformed HTML never throws (htmlparser2 is forgiving); a body that is neither HTML
 * nor JSON under a rule that needs one is `bytes`.
 *
 * @example
 * countedText(rule, Buffer.from('<p class="price">5</p>'), 'text/html').text // '<p class="price">5</p>'
 */
export function countedText(rule: Rule | undefined, body: Buffer, contentType: string | undefined, options: CountOptions = {}): Counted {
	if (options.pdf) {
		if ('why' in options.pdf) return { text: '', kind: 'bytes', why: options.pdf.why };
		return { text: rule ? pdfLines(removeMatches(options.pdf.text, rule.ignore)) : options.pdf.text, kind: 'pdf' };
	}
	const raw = body.toString('utf8');
	const json = rule?.pointer !== undefined || isJsonType(contentType);
	if (json) {
		let document: unknown;
		try {
			document = JSON.parse(raw);
		} catch {
			return { text: raw, kind: rule ? 'bytes' : 'none' };
		}
		if (!rule) return { text: stable(document, []), kind: 'json' };
		const parts = rule.pointer ? rule.pointer.map((pointer) => resolvePointer(document, pointer)) : [document];
		return { text: parts.map((part) => stable(part, rule.ignore)).join('\n'), kind: 'json' };
	}
	if (!rule) return { text: raw, kind: 'none' };
	const type = (contentType ?? '').toLowerCase();
	const html = /html|xml/.test(type) || (type === '' && /^\s*</.test(raw));
	if (!html && (rule.select || rule.exclude || rule.text || rule.product)) return { text: removeMatches(raw, rule.ignore), kind: 'bytes' };
	if (!html) return { text: removeMatches(raw, rule.ignore), kind: 'none' };
	// A product rule's page is parsed with its markup found as it goes (no second walk for the offer).
	const parsed = rule.product ? parseWithMarkup(raw) : { document: parseHtml(raw), markup: undefined };
	const document = parsed.document;
	let markup = parsed.markup;
	let nodes: AnyNode[] = [document];
	let matched: boolean | undefined;
	// Both sets of selectors see the page as served: `.price .was` excludes inside a selected `.price`.
	if (rule.select) {
		nodes = rule.select.flatMap(({ test }) => selectAll(test, document));
		matched = nodes.length > 0;
	}
	let removed: Partial<Counted> = {};
	if (rule.exclude) {
		// Each element once, the outermost only (what is inside it goes with it), in document order.
		const gone = uniqueSort(removeSubsets(rule.exclude.flatMap(({ test }) => selectAll<AnyNode, Element>(test, document)))) as Element[];
		removed = { excluded: gone.length, ...(options.explain ? { excerpts: gone.map(excerpt) } : {}) };
		for (const element of gone) removeElement(element);
		// A selected element that was itself removed, or sat inside one, counts no more.
		if (gone.length > 0) {
			nodes = nodes.filter((node) => attachedTo(node, document));
			// The markup found as it was parsed holds the removed elements: the offer's is found again, in what is left.
			markup = undefined;
		}
	}
	if (rule.product) {
		// The offer is all that counts: the rest of the page, priceValidUntil and tokens included, is noise.
		// Excluded elements are gone first, so that a "related products" block's prices are not read.
		const offerOptions = options.url === undefined ? rule.product : { ...rule.product, url: options.url };
		const offer = readOffer(document, offerOptions, markup);
		// `rules test` explains the page as read here, not as served: an excluded block's prices are no candidates.
		const explained = options.explain ? { explained: explainOffer(document, offerOptions, markup) } : {};
		return {
			text: removeMatches(offerText(offer), rule.ignore),
			kind: 'html',
			matched: offer !== undefined,
			...(offer ? { offer } : {}),
			...explained,
			...removed,
		};
	}
	if (rule.text) {
		// Collapsed again once the ignored parts are out, so that removing them leaves no trace.
		const text = removeMatches(nodes.map(visibleText).join('\n'), rule.ignore)
			.replace(/[ \t]+/g, ' ')
			.replace(/ ?\n ?/g, '\n')
			.trim();
		return { text, kind: 'html', matched, ...removed };
	}
	return { text: removeMatches(nodes.map((node) => render(node)).join('\n'), rule.ignore), kind: 'html', matched, ...removed };
}

const attachedTo = (node: AnyNode, root: AnyNode): boolean => {
	let current: AnyNode | null = node;
	while (current && current !== root) current = current.parent;
	return current === root;
};

/** An element, short: its tag with id and classes, and the start of its visible text. */
function excerpt(element: Element): string {
	const id = element.attribs['id'] ? `#${element.attribs['id']}` : '';
	const classes = (element.attribs['class'] ?? '')
		.split(/\s+/)
		.filter(Boolean)
		.map((name) => `.${name}`)
		.join('');
	const text = visibleText(element);
	const shown = text.length > 60 ? `${text.slice(0, 59)}…` : text;
	return `${element.name}${id}${classes}${shown ? ` "${shown}"` : ''}`;
}

function visibleText(node: AnyNode): string {
	const parts: string[] = [];
	const walk = (current: AnyNode) => {
		if ((current as Element).name !== undefined && HIDDEN.has((current as Element).name)) return;
		if (current.type === 'text') parts.push(textContent(current));
		for (const child of (current as Element).children ?? []) walk(child);
	};
	walk(node);
	return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * The text with every match of every pattern removed: `ignore` patterns here, learned
 * noise in noise.ts. Patterns are global regular expressions.
 *
 * @example
 * removeMatches('at 10:00 ok', [/\d+:\d+/g]) // 'at  ok'
 */
export function removeMatches(text: string, patterns: readonly RegExp[]): string {
	let out = text;
	for (const pattern of patterns) out = out.replace(pattern, '');
	return out;
}

/** RFC 6901: `/a/0/b~1c`; a pointer that names nothing resolves to undefined. */
function resolvePointer(document: unknown, pointer: string): unknown {
	if (pointer === '') return document;
	let current: unknown = document;
	for (const token of pointer
		.slice(1)
		.split('/')
		.map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string, unknown>)[token];
	}
	return current;
}

/**
 * JSON with keys sorted (so key order never counts as a change), keys matching `ignore`
 * dropped, and in string values what `ignore` matches removed.
 */
function stable(value: unknown, ignore: readonly RegExp[]): string {
	return (
		JSON.stringify(value, (_key, inner: unknown) => {
			if (typeof inner === 'string') return removeMatches(inner, ignore);
			if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
			const kept = Object.keys(inner).filter((key) => !ignore.some((pattern) => ((pattern.lastIndex = 0), pattern.test(key))));
			return Object.fromEntries(kept.sort().map((key) => [key, (inner as Record<string, unknown>)[key]]));
		}) ?? 'undefined'
	);
}
