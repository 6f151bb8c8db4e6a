import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const TRUTH = path.join(ROOT, 'test/fixtures/product-corpus/truth.json');

/**
 * The corpus's pages with their truth (test/fixtures/product-corpus/truth.json), from `dir`,
 * else from where test/helpers/product-corpus.ts looks: $REVISIT_PRODUCT_CORPUS, beside
 * truth.json, ../shared/product-corpus beside the clone. Throws naming them when none has them.
 *
 * @example
 * const { dir, pages } = loadCorpus(); pages[0].truth.price // 4.45
 */
export function loadCorpus(dir) {
	const truths = JSON.parse(readFileSync(TRUTH, 'utf8'));
	const candidates = dir ? [dir] : [process.env.REVISIT_PRODUCT_CORPUS, path.dirname(TRUTH), path.join(ROOT, '../shared/product-corpus')].filter(Boolean);
	const found = candidates.find((candidate) => existsSync(path.join(candidate, truths[0].file)));
	if (!found) throw new Error(`the corpus pages are in none of ${candidates.join(', ')}: give --dir or set REVISIT_PRODUCT_CORPUS`);
	const pages = truths.map((truth) => {
		const bytes = readFileSync(path.join(found, truth.file));
		return { truth, path: path.join(found, truth.file), html: (truth.file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8') };
	});
	return { dir: found, pages };
}

/**
 * The page with what moves on every fetch of a real shop page put in: a token in a script
 * and in a hidden input, and the time the page was made, in the script and in the text.
 *
 * @example
 * withNoise(html, 'c0ffee', 1765000000000)
 */
export function withNoise(html, token, time) {
	const script = `<script>window.__csrf="${token}";window.__renderedAt=${time};</script>`;
	const body = `<input type="hidden" name="form_key" value="${token}"><span hidden>Page generated at ${new Date(time).toISOString()}</span>`;
	const head = /<head\b[^>]*>/i.exec(html);
	const withScript = head ? html.slice(0, head.index + head[0].length) + script + html.slice(head.index + head[0].length) : script + html;
	const open = /<body\b[^>]*>/i.exec(withScript);
	return open ? withScript.slice(0, open.index + open[0].length) + body + withScript.slice(open.index + open[0].length) : withScript + body;
}

/**
 * The page with its price moved up by one unit wherever it is written as that price (the
 * visible text and the markup alike), in each of the ways shops write it: `7.49`, `7,49`,
 * `1,320`, `1.299,00`, `27.9`, `253.0`. `edits` is how many places were changed (0: the price is not
 * written in a way this finds, and the page cannot be edited).
 *
 * @example
 * editPrice('<b>7,49 €</b><meta itemprop="price" content="7.49">', 7.49) // { html: '<b>8,49 €</b>…"8.49">', edits: 2 }
 */
export function editPrice(html, price) {
	const moved = price + 1;
	const forms = [];
	for (const [thousands, decimal] of [
		[',', '.'],
		['.', ','],
		['', '.'],
		['', ','],
		[' ', ','],
		['\u00a0', ','],
	]) {
		forms.push((value) => group(value.toFixed(2), thousands, decimal));
		forms.push((value) => group(value.toFixed(1), thousands, decimal));
		if (Number.isInteger(price) && price >= 1000 && thousands !== '') forms.push((value) => group(String(value), thousands, decimal));
	}
	if (!Number.isInteger(price) && String(price) !== price.toFixed(2)) forms.push((value) => String(Math.round(value * 100) / 100));
	let edits = 0;
	let out = html;
	for (const form of new Set(forms)) {
		const from = form(price);
		const to = form(moved);
		const pattern = new RegExp(`(?<![\\d.,])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d]|[.,]\\d)`, 'g');
		out = out.replace(pattern, () => {
			edits++;
			return to;
		});
	}
	// A whole price written bare ("253") is edited only as a value of its own (content="253",
	// "price":253, <span>253</span>): as free text the number is too common to be this price.
	if (Number.isInteger(price)) {
		out = out.replace(new RegExp(`(?<=[="':>]\\s*)${price}(?=\\s*["'<,}])`, 'g'), () => {
			edits++;
			return String(moved);
		});
	}
	return { html: out, edits };
}

/** `1234.50` written with the given separators: `1,234.50`, `1.234,50`, `1234,50`. */
function group(fixed, thousands, decimal) {
	const [whole, fraction] = fixed.split('.');
	const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
	return fraction === undefined ? grouped : `${grouped}${decimal}${fraction}`;
}
