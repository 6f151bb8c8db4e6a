import { defer, finalize } from 'rxjs';
import { decodeBody } from '../../net/http/decode.js';
import { send } from '../../net/http/send.js';
import { shownUrl } from '../../base/util/shown-url.js';
import type { InputLine } from '../../domain/task/types.js';
import { readItems } from './items.js';
import { parseSitemap } from './sitemap-xml.js';
import { whatItIs, xmlProblem } from './xml-check.js';
import type { Source, SourceContext } from './source.js';

/** Sitemaps of more than this many bytes, unzipped, are refused (the protocol allows 50 MB). */
const MAX_BYTES = 64 * 1024 * 1024;

export interface SitemapSourceOptions {
	/** A sitemap.xml or sitemap index (http or https). */
	url: string;
	/** Sitemap indexes followed below the first document at most. */
	maxDepth?: number;
}

/**
 * The page URLs of a sitemap, following sitemap indexes recursively (depth-first, each
 * sitemap once). Sitemaps are fetched through the run's HTTP client and limiter, with
 * its retries; gzip is undone whether it is a Content-Encoding or the file itself
 * (`sitemap.xml.gz`). Each URL keeps its entry's `<lastmod>` and the line it was on. A
 * sitemap that can't be fetched or read, is not a sitemap, or is cut short (not
 * well-formed XML) is reported as an error of the source (exit status 1) and the others
 * are still read; of one cut short, the whole entries before the cut are still checked.
 *
 * @example
 * sitemapSource({ url: 'https://example.org/sitemap.xml' })
 */
export function sitemapSource(options: SitemapSourceOptions): Source {
	const maxDepth = options.maxDepth ?? 5;
	return (context) =>
		defer(() => {
			const controller = new AbortController();
			return readItems(entries(context, options.url, maxDepth, controller.signal), context.valve).pipe(finalize(() => controller.abort()));
		});
}

async function* entries(context: SourceContext, root: string, maxDepth: number, signal: AbortSignal): AsyncGenerator<InputLine> {
	const seen = new Set<string>();
	// Line 0: about the sitemap as a whole, named by its URL.
	const problem = (url: string, text: string): InputLine => ({ line: 0, text: url, source: `sitemap ${shownUrl(url)}`, problem: text });

	async function* visit(url: string, depth: number): AsyncGenerator<InputLine> {
		if (seen.has(url)) return;
		seen.add(url);
		const fetched = await fetchSitemap(context, url, signal);
		if ('problem' in fetched) return void (yield problem(url, fetched.problem));
		const document = parseSitemap(fetched.text);
		if (document.kind === 'unknown') return void (yield problem(url, `not a sitemap: ${whatItIs(fetched.text)} (no <urlset> or <sitemapindex>)`));
		// Checked before its entries go out, so the error comes first and is not lost if the run stops early.
		const broken = xmlProblem(fetched.text);
		if (broken !== undefined) yield problem(url, `not well-formed XML, ${broken}; the ${document.entries.length} whole entries before that are read`);
		if (document.kind === 'urlset') {
			for (const entry of document.entries) {
				yield { line: entry.line, text: entry.loc, source: url, from: root, ...(entry.lastmod === undefined ? {} : { lastmod: entry.lastmod }) };
			}
			return;
		}
		if (depth >= maxDepth) return void (yield problem(url, `sitemap indexes nested deeper than ${maxDepth}`));
		for (const entry of document.entries) {
			let child: string;
			try {
				child = new URL(entry.loc, url).href;
			} catch {
				yield { line: entry.line, text: entry.loc, source: url, problem: 'not a sitemap URL' };
				continue;
			}
			yield* visit(child, depth + 1);
		}
	}
	yield* visit(root, 0);
}

async function fetchSitemap(context: SourceContext, url: string, signal: AbortSignal): Promise<{ text: string } | { problem: string }> {
	const result = await send(context.deps, context.retry, { method: 'GET', url, headers: {}, bodyMode: 'keep' }, signal);
	if (result.error) return { problem: `could not be fetched: ${result.error.code}: ${result.error.message}` };
	if (result.status < 200 || result.status >= 300 || !result.body) return { problem: `could not be fetched: the server answered ${result.status}` };
	let body = result.body;
	if (body[0] === 0x1f && body[1] === 0x8b) {
		try {
			// The file itself is gzipped (sitemap.xml.gz): undone as a gzip coding would be, with the same bound.
			body = await decodeBody(body, 'gzip', MAX_BYTES);
		} catch (error) {
			return { problem: `could not be unzipped: ${(error as Error).message}` };
		}
	}
	if (body.length > MAX_BYTES) return { problem: `larger than ${MAX_BYTES} bytes` };
	return { text: body.toString('utf8') };
}
