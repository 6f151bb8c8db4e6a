// Makes bench/data/held-out-prices.json: price strings the price parser was not written
// against, taken from the test suites of other price and money parsers (not Zyte's).
//
//   node bench/data/held-out-prices.js owner/name=GIT_DIR ... > bench/data/held-out-prices.json
//
// GIT_DIR is a clone of that repository (a work tree or a bare git directory); each file is
// read at the commit pinned below with `git show`, so the set does not move when a source
// does. Nothing of the sources is run: their test files are read as text, and each example
// is the string a test passes in, with the amount (and currency) that test asserts.
//
// What is kept, the same for every source:
// - an example whose expected amount the source states for the text alone (a currency
//   given as a fallback argument is dropped, since the text does not say it);
// - "no price" only where the text holds no digit at all (`''`, `tea`): a source's refusal
//   of a number it finds malformed or ambiguous (`1,234.567`, `$5.95 - 10.95`) is that
//   library's policy, not an absence of a price, so those assertions are left out;
// - the currency only where the source states one that the text itself shows (an ISO
//   code written in it, or the symbol the source says it found); otherwise null.
// Amounts are the source's, sign included (`-$100` is -100 in parsecurrency and monetize).
// A text that a source asserts twice is kept once.
import { execFileSync } from 'node:child_process';

const SOURCES = [
	{
		repo: 'caiogondim/parse-price.js',
		commit: '79249f19a9fcd2071c0c5734cf4ab069d385354b',
		version: 'npm parse-price 1.1.8',
		license: 'MIT',
		path: 'test/prices-examples.js',
		note: "npm parse-price's own test examples: held out for revisit, seen by parse-price",
		read: caiogondim,
	},
	{
		repo: 'prepair/parse-price',
		commit: '318b7eca6b6627b755502708c64127038c8d84b5',
		version: 'npm @prepair/parse-price 1.1.6',
		license: 'MIT',
		path: 'src/index.spec.js',
		read: prepair,
	},
	{
		repo: 'mktj/parsecurrency',
		commit: '9fac2d4f85499057c3a4750b3d944ed63e850945',
		version: 'npm parsecurrency 1.1.1',
		license: 'MIT',
		path: 'test.js',
		read: parsecurrency,
	},
	{
		repo: 'PruvoNet/price-extractor',
		commit: 'cc9b8576b15587bd16a0043ee4c074b361db0021',
		version: 'npm price-extractor 2.1.1',
		license: 'GPL-3.0',
		path: 'src/test/index.spec.ts',
		read: priceExtractor,
	},
	{
		repo: 'RubyMoney/monetize',
		commit: '8c174366f6be880d582f1901554b140cddecea95',
		version: 'gem monetize (master, 2026-02-04)',
		license: 'MIT',
		path: 'spec/monetize_spec.rb',
		read: monetize,
	},
];

// A quoted literal's text: the escapes these test files use (JS and Ruby alike).
function unquote(quote, body) {
	if (quote === "'" && body.includes('#{')) return undefined;
	return body.replace(/\\(u\{?([0-9a-fA-F]+)\}?|.)/g, (all, escape, hex) => {
		if (hex) return String.fromCodePoint(parseInt(hex, 16));
		return { n: '\n', t: '\t', r: '\r' }[escape] ?? escape;
	});
}
const STRING = String.raw`(['"])((?:\\.|(?!\1)[^\\])*)\1`;
const iso = (text) => text.match(/\b([A-Z]{3})\b/)?.[1] ?? null;

function caiogondim(text) {
	const out = [];
	const block = /\{\s*input:\s*(?:'((?:\\.|[^'\\])*)'|[\d.]+),\s*expectedOutput:\s*([-\d.]+),\s*name:\s*'([^']*)'/g;
	for (const [, raw, amount, name] of text.matchAll(block)) {
		if (raw === undefined) continue; // a number passed in, not a text
		out.push({ price_raw: unquote("'", raw), amount: Number(amount), currency: iso(name) });
	}
	return out;
}

function prepair(text) {
	const call = /parsePrice\('((?:\\.|[^'\\])*)'\)\)\s*\.to\.eql\(\{currencyCode: '([A-Z]{3})', value: ([-\d.]+)\}\)/g;
	return [...text.matchAll(call)].map(([, raw, currency, amount]) => ({ price_raw: unquote("'", raw), amount: Number(amount), currency }));
}

function parsecurrency(text) {
	const out = [];
	const call = new RegExp(String.raw`parseCurrency\(${STRING}\)\)\.to\.(?:deep\.equal\(\{([^}]*)\}|equal\(null\))`, 'g');
	for (const [, quote, body, fields] of text.matchAll(call)) {
		const raw = unquote(quote, body);
		if (fields === undefined) {
			out.push({ price_raw: raw, amount: null, currency: null });
			continue;
		}
		const field = (name) => fields.match(new RegExp(String.raw`\b${name}:\s*(?:'((?:\\.|[^'\\])*)'|([-\d.]+))`));
		const value = field('value');
		const code = field('currency')?.[1];
		const symbol = field('symbol')?.[1];
		out.push({ price_raw: raw, amount: Number(value[2]), currency: code || (symbol ? unquote("'", symbol).trim() : null) });
	}
	return out;
}

function priceExtractor(text) {
	const out = [];
	const call = new RegExp(
		String.raw`searchPriceAndCode\(${STRING}(?:,\s*'([A-Z]{3})')?\);\s*expect\(res\.code\)\.to\.eql\((undefined|'[A-Z]{3}')\);` +
			String.raw`\s*expect\(res\.price\)\.to\.eql\((undefined|[-\d.]+)\)`,
		'g',
	);
	for (const [, quote, body, fallback, code, price] of text.matchAll(call)) {
		out.push({
			price_raw: unquote(quote, body),
			amount: price === 'undefined' ? null : Number(price),
			currency: code === 'undefined' || fallback ? null : code.slice(1, -1),
		});
	}
	return out;
}

function monetize(text) {
	// From where options change the reading of the same text (enforce_currency_delimiters,
	// custom currencies with four decimals, expect_whole_subunits), assertions say how the
	// library is configured rather than what a page meant: stop there.
	const cut = text.indexOf('enforce_currency_delimiters enabled');
	const lines = (cut > 0 ? text.slice(0, cut) : text).split('\n');
	const out = [];
	let named = 0; // five_ninety_five, as last assigned
	for (const line of lines) {
		const assigned = line.match(/five_ninety_five = Money\.new\((-?[\d_]+)/);
		if (assigned) named = Number(assigned[1].replaceAll('_', '')) / 100;
		const parse = line.match(
			new RegExp(
				String.raw`Monetize\.parse\(${STRING}(?:,\s*'([A-Z]{3})')?\)\)\.to (?:eq (?:Money\.new\((-?[\d_]+),\s*'([A-Z]{3})'\)|(five_ninety_five)|` +
					String.raw`(Money\.empty))|(be_nil))`,
			),
		);
		const toMoney = line.match(new RegExp(String.raw`expect\(${STRING}\.to_money\)\.to eq Money\.new\((-?[\d_]+),\s*'([A-Z]{3})'\)`));
		let raw;
		let amount;
		let code;
		if (parse) {
			const [, quote, body, , cents, asserted, five] = parse;
			raw = unquote(quote, body);
			amount = cents !== undefined ? Number(cents.replaceAll('_', '')) / 100 : five ? named : null;
			code = asserted;
		} else if (toMoney) {
			const [, quote, body, cents, asserted] = toMoney;
			raw = unquote(quote, body);
			amount = Number(cents.replaceAll('_', '')) / 100;
			code = asserted;
		} else continue;
		if (raw === undefined) continue;
		// The currency the spec asserts depends on options (assume_from_symbol, a default
		// currency); it is kept only where the text writes that code.
		out.push({ price_raw: raw, amount, currency: code && raw.includes(code) ? code : null });
	}
	return out;
}

const dirs = new Map(process.argv.slice(2).map((arg) => arg.split(/=(.*)/s).slice(0, 2)));
if (dirs.size === 0) {
	console.error('usage: node bench/data/held-out-prices.js owner/name=GIT_DIR ... > bench/data/held-out-prices.json');
	console.error(`sources: ${SOURCES.map((source) => source.repo).join(', ')}`);
	process.exit(2);
}
const examples = [];
const sources = [];
for (const source of SOURCES) {
	const dir = dirs.get(source.repo);
	if (!dir) {
		console.error(`skipped ${source.repo}: no GIT_DIR given`);
		continue;
	}
	const text = execFileSync('git', ['-C', dir, 'show', `${source.commit}:${source.path}`], { encoding: 'utf8' });
	const seen = new Set();
	let dropped = 0;
	for (const example of source.read(text)) {
		if (seen.has(example.price_raw)) continue;
		seen.add(example.price_raw);
		if (example.amount === null && /\d/.test(example.price_raw)) {
			dropped++;
			continue;
		}
		examples.push({ source: source.repo, ...example });
	}
	const { read, ...about } = source;
	sources.push({ ...about, examples: examples.filter((example) => example.source === source.repo).length, dropped_refusals: dropped });
}
process.stdout.write(`${JSON.stringify({ made: new Date().toISOString(), sources, examples }, null, '\t')}\n`);
