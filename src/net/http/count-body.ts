import type { Got } from 'got';
import type { ProbeResult } from '../../domain/task/types.js';
import { countedContent } from '../../domain/content/content-hash.js';
import { countedText, type Counted } from '../../domain/content/counted.js';
import { hashBody } from '../../domain/content/hash.js';
import { isJsonType, prettyJson } from '../../domain/content/json-text.js';
import { pdfReader, type PdfOptions, type PdfText } from '../../domain/content/pdf-text.js';
import { ruleFor, type Rule } from '../../domain/content/rules.js';
import { sourceParts } from '../../domain/content/source-parts.js';
import { isHtml, visibleTextOf } from '../../domain/content/visible-text.js';
import { parseHtml } from '../../domain/html/parse.js';
import { keptText } from '../../domain/content/word-diff.js';

/** Per-run limits the client carries in its got `context`. */
export interface RequestLimits {
	/** Largest body, encoded or decoded, in bytes. */
	maxBodyBytes: number;
	/** Refuse private and loopback addresses. */
	denyPrivate: boolean;
	/** Keep each answer as it came over the wire (see net/http/capture.ts), for WARC output. */
	capture: boolean;
	/** Content rules: what part of a 2xx body counts (see domain/content/rules.ts). */
	rules: readonly Rule[];
	/** Keep the counted text with the content hash, for learning noise (`--learn-noise`). */
	keepText: boolean;
	/** Keep the counted text, cut at this many bytes (`--keep-text`); 0: not. */
	keepCounted: number;
	/** Keep an HTML page's markup, not its visible text, when no rule applies (`--diff-of source`). */
	keepSource: boolean;
	/** Reads a PDF's text (domain/content/pdf-text.ts), so many at once at most, with the client's `pdf` options. */
	readPdf: (body: Buffer) => Promise<PdfText>;
}

const limitsByClient = new WeakMap<Got, RequestLimits>();
/** The client's limits, read once per client, not per request: a client's defaults don't change. */
export const limitsOf = (client: Got): RequestLimits => {
	let limits = limitsByClient.get(client);
	if (limits === undefined) {
		// The client's options as net/http/client.ts put them in its context: `pdf` is read here into the reader.
		const context = client.defaults.options.context as Partial<RequestLimits> & { pdf?: PdfOptions };
		limits = {
			maxBodyBytes: context.maxBodyBytes ?? Number.POSITIVE_INFINITY,
			denyPrivate: context.denyPrivate ?? false,
			capture: context.capture ?? false,
			rules: context.rules ?? [],
			keepText: context.keepText ?? false,
			keepCounted: context.keepCounted ?? 0,
			keepSource: context.keepSource ?? false,
			readPdf: pdfReader(context.pdf),
		};
		limitsByClient.set(client, limits);
	}
	return limits;
};

/**
 * Counts a body that did not come over the wire as the probe read it (a page as Chromium
 * rendered it): its content hash and kept text under the run's rules and limits, as a 2xx
 * body of `client` would have been counted. The result's `hash` (the body's) is taken too.
 *
 * @example
 * countBody(client, result, url, Buffer.from(rendered.html), 'text/html')
 */
export function countBody(client: Got, result: ProbeResult, url: string, body: Buffer, contentType: string | undefined): void {
	const limits = limitsOf(client);
	result.hash = hashBody(body);
	delete result.content;
	delete result.counted;
	delete result.parts;
	keepContent(result, ruleFor(limits.rules, url), body, contentType, limits, url);
}

/**
 * The content hash of a 2xx body (with rules, while learning noise, and always for a PDF
 * or a JSON document, whose counted text is not their bytes) and its counted text cut at
 * `keepCounted` (`--keep-text`), reading the body once: the text the hash was taken of is
 * the one kept. A PDF whose text could not be read is judged by its bytes and keeps no
 * text (`unread` says why); when that is this machine's failure (pdftotext missing, too
 * slow), it has no content hash at all, so that it is judged as before PDFs were read,
 * and its next reading is no change of its own.
 */
export function keepContent(
	result: ProbeResult,
	rule: Rule | undefined,
	body: Buffer,
	contentType: string | undefined,
	limits: RequestLimits,
	url: string,
	pdf?: PdfText,
): void {
	const keep = limits.keepCounted > 0;
	if (pdf && 'why' in pdf) {
		result.unread = pdf.why;
		if (pdf.transient) return;
	}
	const counts = limits.rules.length > 0 || limits.keepText || pdf !== undefined || isJsonType(contentType);
	if (!counts && !keep) return;
	const counted = countedText(rule, body, contentType, { url, pdf });
	if (counts) result.content = countedContent(counted, rule, body, limits.keepText, result.hash);
	if (keep && counted.why === undefined) result.counted = readable(rule, counted, contentType, limits, result, body.length);
}

// Only for the reader: the hash was taken already. Without a rule an HTML page's counted text is its markup; its visible text is what a reader wants diffed.
// JSON is counted compact (one value a line): a reader diffs it pretty-printed.
// Its visible text read, an HTML page also leaves the fingerprint of its parts (`result.parts`): what a change whose text is the same can say moved.
function readable(
	rule: Rule | undefined,
	counted: Counted,
	contentType: string | undefined,
	limits: RequestLimits,
	result: ProbeResult,
	bytes: number,
): NonNullable<ProbeResult['counted']> {
	if (counted.kind === 'json') return { ...keptText(prettyJson(counted.text), limits.keepCounted), json: true };
	if (counted.kind === 'pdf') return keptText(counted.text, limits.keepCounted);
	if (rule || limits.keepSource || !isHtml(contentType, counted.text)) return keptText(counted.text, limits.keepCounted);
	const document = parseHtml(counted.text);
	const text = visibleTextOf(document);
	result.parts = sourceParts(document, text, bytes);
	return { ...keptText(text, limits.keepCounted), visible: true };
}
