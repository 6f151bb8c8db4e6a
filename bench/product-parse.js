// The cost of reading a product page's offer: `npm run build && node bench/product-parse.js
// [--rounds 300] [--reps 5] [--bare]`. With --bare, each page's structured data is taken out
// first (JSON-LD, microdata attributes, Open Graph product metas), so that the offer is read
// from the page itself (src/domain/product/page/): what a shop without structured
// data costs. In this process, on one core, for each page in bench/data/product/
// (bench/lib/product-pages.js writes them: ~70 KB product pages, one per markup), as bodies per
// second (the median of --reps runs of --rounds bodies each):
//   hash       hashBody of the whole body: what a check costs without --product
//   parse      the body decoded and parseDocument'd (htmlparser2), nothing more
//   readOffer  parse + readOffer (dist/domain/product/offer.js): what a check costs with --product
//   explain    parse + explainOffer (with the .price and .stock selectors), as `rules test` runs it
//   alone      readOffer on a page parsed once: the extraction's own cost, without the parse
// With --against DIR, also `against`: parse + readOffer of another build (DIR/product/offer.js),
// timed in turn with the others, and the cost of parse + this build's readOffer over
// that. To measure a change against the code before it (inside the repository,
// so that the build finds node_modules; bench/.tmp/ is ignored):
//   mkdir -p bench/.tmp/before && git archive REV src/domain/product src/base/errors | tar -x -C bench/.tmp/before
//   npx tsc --outDir bench/.tmp/before-dist --module nodenext --moduleResolution nodenext --target es2022 \
//     --skipLibCheck bench/.tmp/before/src/product/offer.ts
//   node bench/product-parse.js --against bench/.tmp/before-dist
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { DATA } from './lib/product-pages.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({
	options: {
		rounds: { type: 'string', default: '300' },
		reps: { type: 'string', default: '5' },
		against: { type: 'string' },
		bare: { type: 'boolean', default: false },
	},
});
const rounds = Number(values.rounds);
const reps = Number(values.reps);
if (!(rounds > 0 && reps > 0)) throw new Error('--rounds and --reps take positive numbers');
const { readOffer, explainOffer } = await import(pathToFileURL(path.join(ROOT, 'dist/domain/product/offer.js')).href);
const { hashBody } = await import(pathToFileURL(path.join(ROOT, 'dist/domain/content/hash.js')).href);
const against = values.against === undefined ? undefined : await import(pathToFileURL(path.resolve(values.against, 'domain/product/offer.js')).href);

const parsed = new Map();
const ways = {
	hash: (body) => hashBody(body),
	parse: (body) => parseDocument(body.toString('utf8')),
	readOffer: (body) => readOffer(parseDocument(body.toString('utf8'))),
	explain: (body) => explainOffer(parseDocument(body.toString('utf8')), { price: '.price', availability: '.stock' }),
	alone: (body) => readOffer(parsed.get(body)),
	...(against ? { against: (body) => against.readOffer(parseDocument(body.toString('utf8'))) } : {}),
};

/**
 * Bodies per second of each way on `body`: the median of `reps` timed runs, after a warm-up.
 * The ways take turns within each repetition, so a busy machine slows them alike.
 */
function rates(body) {
	const runs = Object.fromEntries(Object.keys(ways).map((way) => [way, []]));
	for (const run of Object.values(ways)) for (let i = 0; i < 30; i++) run(body);
	for (let rep = 0; rep < reps; rep++) {
		for (const [way, run] of Object.entries(ways)) {
			const started = process.hrtime.bigint();
			for (let i = 0; i < rounds; i++) run(body);
			runs[way].push(rounds / (Number(process.hrtime.bigint() - started) / 1e9));
		}
	}
	return Object.fromEntries(Object.entries(runs).map(([way, list]) => [way, list.sort((a, b) => a - b)[Math.floor(reps / 2)]]));
}

const pages = readdirSync(DATA)
	.filter((name) => name.endsWith('.html'))
	.sort();
if (pages.length === 0) throw new Error(`no pages in ${DATA}: run node bench/lib/product-pages.js`);
console.log(`Bodies per second, one core, ${rounds} bodies x ${reps} runs (median); node ${process.version}\n`);
const extra = against ? ` parse + readOffer, ${values.against} | cost over ${values.against}'s |` : '';
console.log(`| page | KB | offer read | hash | parse | parse + readOffer | parse + explain | readOffer alone | parse + readOffer / parse |${extra}`);
console.log(`|---|---:|---|---:|---:|---:|---:|---:|---:|${against ? '---:|---:|' : ''}`);
for (const name of pages) {
	const body = values.bare ? Buffer.from(bare(readFileSync(path.join(DATA, name), 'utf8'))) : readFileSync(path.join(DATA, name));
	parsed.set(body, parseDocument(body.toString('utf8')));
	const offer = readOffer(parsed.get(body));
	const rate = rates(body);
	const shown = offer ? `${offer.from} ${offer.price ?? '-'} ${offer.currency ?? ''} ${offer.availability ?? ''}`.replace(/ +/g, ' ') : 'none';
	const side = against ? ` ${Math.round(rate.against)} | ${(rate.against / rate.readOffer).toFixed(2)} |` : '';
	console.log(
		`| ${name} | ${(body.length / 1024).toFixed(0)} | ${shown} | ${Math.round(rate.hash)} | ${Math.round(rate.parse)} | ${Math.round(rate.readOffer)} | ` +
			`${Math.round(rate.explain)} | ${Math.round(rate.alone)} | ${(rate.readOffer / rate.parse).toFixed(2)} |${side}`,
	);
}

/** A page without its structured data: no JSON-LD, no microdata attributes, no Open Graph product metas. */
function bare(html) {
	return html
		.replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/g, '')
		.replace(/\sitem(prop|scope|type)(="[^"]*")?/g, '')
		.replace(/<meta (property|name)="(og|product):[^>]*>/g, '');
}
