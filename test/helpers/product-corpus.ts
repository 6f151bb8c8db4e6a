import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** What a page of the corpus is, read by hand from it: test/fixtures/product-corpus/truth.json. */
export interface CorpusTruth {
	file: string;
	site: string;
	url: string | null;
	language: string;
	source: { repo: string; path: string; commit: string; licence: string };
	/** The price a shopper reads for this page's product; null where the page offers none. */
	price: number | null;
	currency: string | null;
	availability: string | null;
	listPrice: number | null;
	markup: 'json-ld' | 'microdata' | 'rdfa' | 'opengraph' | 'page';
	note: string;
}

export interface CorpusPage {
	truth: CorpusTruth;
	html: string;
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS_TRUTH = path.join(REPO, 'test/fixtures/product-corpus/truth.json');

/**
 * Where the corpus's pages are: $REVISIT_PRODUCT_CORPUS, else beside truth.json, else the
 * steering repository's shared/product-corpus beside the clone (where CI finds shared/).
 * Undefined when none holds the first page of truth.json.
 *
 * @example
 * corpusDir() // '/work/shared/product-corpus'
 */
export function corpusDir(): string | undefined {
	const first = readTruth()[0]?.file;
	const candidates = [process.env['REVISIT_PRODUCT_CORPUS'], path.dirname(CORPUS_TRUTH), path.join(REPO, '../shared/product-corpus')];
	return candidates.find((dir): dir is string => dir !== undefined && dir !== '' && first !== undefined && existsSync(path.join(dir, first)));
}

/**
 * The entries of truth.json, in its order.
 *
 * @example
 * readTruth()[0].file // 'amazon.co.uk-1.html.gz'
 */
export function readTruth(): CorpusTruth[] {
	return JSON.parse(readFileSync(CORPUS_TRUTH, 'utf8')) as CorpusTruth[];
}

/**
 * Every page of the corpus with its truth, `.gz` pages decompressed; a page named in
 * truth.json but missing from `dir` throws, naming it.
 *
 * @example
 * for (const { truth, html } of readCorpus(corpusDir()!)) readOffer(parseDocument(html));
 */
export function readCorpus(dir: string): CorpusPage[] {
	return readTruth().map((truth) => {
		const bytes = readFileSync(path.join(dir, truth.file));
		return { truth, html: (truth.file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8') };
	});
}
