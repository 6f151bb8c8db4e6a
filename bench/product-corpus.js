// Scores the offer reader on the real-page corpus (test/fixtures/product-corpus, issue 37)
// beside a plain picker over an off-the-shelf extractor (extruct, bench/lib/extruct-pick.py),
// then change detection under moving noise. `npm run build && node bench/product-corpus.js`.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { editPrice, loadCorpus, withNoise } from './lib/product-corpus.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({ options: { dir: { type: 'string' } } });
const { readOffer } = await import(pathToFileURL(path.join(ROOT, 'dist/domain/product/offer.js')).href);
const { dir, pages } = loadCorpus(values.dir);
const FIELDS = ['price', 'currency', 'availability'];

/** The Python that has extruct (Debian's first), or undefined. */
function extructPython() {
	for (const python of ['/usr/bin/python3', 'python3']) {
		if (spawnSync(python, ['-c', 'import extruct'], { stdio: 'ignore' }).status === 0) return python;
	}
	return undefined;
}

const python = extructPython();
if (!python) console.error('the extruct picker is left out: python3-extruct is not installed (apt-get install -y python3-extruct)');

/** The extruct picker's offer for each file, in one Python process. */
function extructOffers(files) {
	const run = spawnSync(python, [path.join(ROOT, 'bench/lib/extruct-pick.py')], { input: files.join('\n'), encoding: 'utf8', maxBuffer: 64 << 20 });
	if (run.status !== 0) throw new Error(`extruct-pick.py failed: ${run.stderr}`);
	const byFile = new Map(
		run.stdout
			.trim()
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line))
			.map((result) => [result.file, result]),
	);
	return files.map((file) => byFile.get(file) ?? {});
}

// The sweep gives the reader the page's URL (its domain names a currency, its ?variant= a variant): so does the bench.
const revisit = (html, url) => readOffer(parseDocument(html), url ? { url } : {}) ?? {};
const plain = (offer) => Object.fromEntries(FIELDS.map((field) => [field, offer[field] ?? null]));
const same = (a, b) => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

const readers = { revisit: pages.map((page) => revisit(page.html, page.truth.url)) };
if (python) readers.extruct = extructOffers(pages.map((page) => page.path));

console.log(
	`${pages.length} pages from ${new Set(pages.map((page) => page.truth.site)).size} sites in ` +
		new Set(pages.map((page) => page.truth.language.split('-')[0])).size +
		` languages (${dir}), ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log(`| reader | ${FIELDS.join(' | ')} | pages with no offer, said none |`);
console.log(`|---|${FIELDS.map(() => '---:').join('|')}|---:|`);
for (const [name, offers] of Object.entries(readers)) {
	const cells = FIELDS.map((field) => {
		const judged = pages.filter((page) => page.truth[field] !== null);
		const right = judged.filter((page) => (offers[pages.indexOf(page)][field] ?? null) === page.truth[field]);
		return `${right.length}/${judged.length} (${Math.round((100 * right.length) / judged.length)}%)`;
	});
	const none = pages.filter((page) => page.truth.price === null && page.truth.availability === null);
	const silent = none.filter((page) => FIELDS.every((field) => (offers[pages.indexOf(page)][field] ?? null) === null));
	console.log(`| ${name} | ${cells.join(' | ')} | ${silent.length}/${none.length} |`);
}

for (const [name, offers] of Object.entries(readers)) {
	console.log(`\n${name} misses:`);
	pages.forEach((page, i) => {
		const wrong = FIELDS.filter((field) => (offers[i][field] ?? null) !== page.truth[field]);
		if (wrong.length > 0)
			console.log(
				`  ${page.truth.file}: ` +
					wrong.map((field) => `${field} ${JSON.stringify(offers[i][field] ?? null)} (truth ${JSON.stringify(page.truth[field])})`).join(', '),
			);
	});
}

// Change detection: each page fetched twice with a new token and time (noise only), and once
// more with its price moved up by one in the text and the markup. A reader raises a false
// alarm when the two noisy fetches give different offers, and misses an edit when the edited
// fetch gives the offer the first one did.
const scratch = mkdtempSync(path.join(tmpdir(), 'product-corpus-'));
try {
	const variants = pages.map((page, i) => {
		const now = Date.now();
		const edited = page.truth.price === null ? { edits: 0 } : editPrice(withNoise(page.html, randomUUID(), now + 2000), page.truth.price);
		const htmls = [withNoise(page.html, randomUUID(), now), withNoise(page.html, randomUUID(), now + 1000), edited.edits > 0 ? edited.html : undefined];
		const files = htmls.map((html, k) => (html === undefined ? undefined : path.join(scratch, `${i}-${k}.html`)));
		htmls.forEach((html, k) => html !== undefined && writeFileSync(files[k], html));
		return { page, htmls, files, editable: edited.edits > 0 };
	});
	const offersOf = {
		revisit: variants.map((variant) => variant.htmls.map((html) => (html === undefined ? undefined : revisit(html, variant.page.truth.url)))),
	};
	if (python) {
		const files = variants.flatMap((variant) => variant.files.filter(Boolean));
		const results = new Map(extructOffers(files).map((result, k) => [files[k], result]));
		offersOf.extruct = variants.map((variant) => variant.files.map((file) => (file === undefined ? undefined : results.get(file))));
	}
	const editable = variants.filter((variant) => variant.editable);
	console.log(
		`\nChange detection under moving noise: ${pages.length} pages fetched twice (a token and a time move), ${editable.length} of them once more with ` +
			`the price edited (the others' price is not written in a form the edit finds, or they have none)\n`,
	);
	const uneditable = variants.filter((variant) => !variant.editable).map((variant) => variant.page.truth.file);
	if (uneditable.length > 0) console.log(`not edited: ${uneditable.join(', ')}\n`);
	console.log('| reader | false alarms (offer moved, only noise did) | missed edits (price moved, offer did not) |');
	console.log('|---|---:|---:|');
	const lists = [];
	for (const [name, offers] of Object.entries(offersOf)) {
		const alarms = variants.filter((variant, i) => !same(offers[i][0], offers[i][1]));
		const missed = variants.filter((variant, i) => variant.editable && same(offers[i][0], offers[i][2]));
		console.log(`| ${name} | ${alarms.length}/${pages.length} | ${missed.length}/${editable.length} |`);
		if (alarms.length > 0) lists.push(`${name} false alarms: ${alarms.map((variant) => variant.page.truth.file).join(', ')}`);
		if (missed.length > 0) lists.push(`${name} missed edits: ${missed.map((variant) => variant.page.truth.file).join(', ')}`);
	}
	if (lists.length > 0) console.log(`\n${lists.join('\n')}`);
} finally {
	rmSync(scratch, { recursive: true, force: true });
}
