// The price parser on a public set of real-world price strings:
// `npm run build && node bench/price-parse.js [--data FILE] [--misses] [--rounds N]`.
//
// The set is Zyte's price-parser test examples (BSD-3-Clause), converted to JSON by
// bench/data/price-strings.py; see bench/data/README.md for where it comes from and how to
// make it. Each example is a text (`price_raw`), an optional currency hint (`currency_raw`,
// text that stood near the price), and the expected amount and currency.
//
// revisit's parsePrice (dist/domain/product/price.js) gets the text and the hint
// ({ currency: currency_raw, decimal } where the example names a decimal separator). An
// amount is right when it equals the expected one (undefined where the set has no price).
// A currency is scored where the set gives both an amount and a currency: right when both
// name the same currency (each written form mapped to its ISO code where it names one,
// `руб` and `₽` alike; ambiguous ones such as `$` and `kr` must match as written).
// npm's parse-price (a devDependency for this comparison only) gets the same text; it
// returns only a number, and 0 for a text without one, so its 0 counts as right for both
// "no price" and a price of 0 (the figure is generous to it). Examples Zyte marks xfail
// (its own parser gets them wrong) are scored on their own line, and so is parsePrice
// given the text alone, without the hint.
// Speed: parses per second over the whole set, one core, median of --rounds (5).
//
// `--held-out FILE` (default bench/data/held-out-prices.json when present) adds a set the
// parser was not written against: price strings from other parsers' test suites, made by
// bench/data/held-out-prices.js. parsePrice gets the text alone (those sources give no
// hint) and is scored per source like the above; parse-price likewise. Either set may be
// missing; the bench needs one.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { countFlag } from './lib/count-flag.js';

const { values: flags } = parseArgs({
	options: {
		data: { type: 'string' },
		'held-out': { type: 'string' },
		misses: { type: 'boolean', default: false },
		rounds: { type: 'string', default: '5' },
	},
});
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = countFlag(flags, 'rounds');
const candidates = flags.data ? [flags.data] : [path.join(ROOT, 'bench/data/price-strings.json'), path.join(ROOT, '../shared/data/price-strings.json')];
const file = candidates.find((candidate) => fs.existsSync(candidate));
const heldOutFile = flags['held-out'] ?? [path.join(ROOT, 'bench/data/held-out-prices.json')].find((candidate) => fs.existsSync(candidate));
if (flags['held-out'] && !fs.existsSync(flags['held-out'])) {
	console.error(`No held-out set at ${flags['held-out']}: make it with the command in bench/data/README.md.`);
	process.exit(2);
}
if (!file && !heldOutFile) {
	console.error(`No price set at ${candidates.join(' or ')}: make it with the command in bench/data/README.md, or pass --data FILE.`);
	process.exit(2);
}
const set = file ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
const { parsePrice } = await import(pathToFileURL(path.join(ROOT, 'dist/domain/product/price.js')).href);
const { currencyCode } = await import(pathToFileURL(path.join(ROOT, 'dist/domain/product/currencies.js')).href);
const parsePriceNpm = createRequire(import.meta.url)('parse-price');

const hintOf = (example) => ({
	...(example.currency_raw ? { currency: example.currency_raw } : {}),
	...(example.decimal_separator === ',' || example.decimal_separator === '.' ? { decimal: example.decimal_separator } : {}),
});
const ours = (example) => parsePrice(example.price_raw ?? '', hintOf(example));
const oursAlone = (example) => parsePrice(example.price_raw ?? '');
const theirs = (example) => {
	const amount = parsePriceNpm(example.price_raw ?? '');
	return Number.isFinite(amount) ? { amount } : undefined;
};
const sameAmount = (got, want) => (want === null ? got === undefined : got !== undefined && Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)));
const canonical = (written) => currencyCode(written) ?? written;

function score(examples, parse, { zeroMeansNone = false } = {}) {
	let amounts = 0;
	let currencies = 0;
	let withCurrency = 0;
	const misses = [];
	for (const example of examples) {
		const parsed = parse(example);
		let amount = parsed?.amount;
		if (zeroMeansNone && amount === 0 && example.amount === null) amount = undefined;
		const amountRight = sameAmount(amount, example.amount);
		if (amountRight) amounts++;
		let currencyRight = true;
		if (example.amount !== null && example.currency !== null) {
			withCurrency++;
			currencyRight = parsed?.currency !== undefined && canonical(parsed.currency) === canonical(example.currency);
			if (currencyRight) currencies++;
		}
		if (!amountRight || !currencyRight) misses.push({ example, parsed });
	}
	return { count: examples.length, amounts, currencies, withCurrency, misses };
}

const percent = (part, whole) => (whole ? `${((100 * part) / whole).toFixed(1)}%` : 'n/a');
const row = (name, result, currency = true) =>
	`| ${name} | ${result.count} | ${result.amounts} (${percent(result.amounts, result.count)}) | ` +
	(currency ? `${result.currencies} of ${result.withCurrency} (${percent(result.currencies, result.withCurrency)})` : '(no currency)') +
	` |`;

function speed(parse) {
	const texts = set.examples;
	const rates = [];
	for (let round = 0; round < rounds; round++) {
		const start = performance.now();
		let parsed = 0;
		while (performance.now() - start < 300) {
			for (const example of texts) parse(example);
			parsed += texts.length;
		}
		rates.push(parsed / ((performance.now() - start) / 1000));
	}
	return Math.round(rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]);
}

// Zyte's set: with the hint, the text alone, and its xfail examples; and speed.
function zyte() {
	const mine = score(set.examples, ours);
	const mineAlone = score(set.examples, oursAlone);
	const npm = score(set.examples, theirs, { zeroMeansNone: true });
	const mineXfail = score(set.xfail, ours);
	const npmXfail = score(set.xfail, theirs, { zeroMeansNone: true });
	console.log(`Price parsing, ${set.examples.length} real-world examples (+ ${set.xfail.length} Zyte marks xfail) from ${path.relative(ROOT, file)}\n`);
	console.log('| parser | examples | amount right | currency right (where the set gives one) |');
	console.log('|---|---:|---:|---:|');
	console.log(row('revisit parsePrice', mine));
	console.log(row('revisit parsePrice, the text alone (no hint)', mineAlone));
	console.log(row('npm parse-price 1.1.8', npm, false));
	console.log(row('revisit parsePrice, xfail set', mineXfail));
	console.log(row('npm parse-price, xfail set', npmXfail, false));
	console.log(`\n| parser | parses/s (one core, median of ${rounds}) |`);
	console.log('|---|---:|');
	console.log(`| revisit parsePrice | ${speed(ours)} |`);
	console.log(`| npm parse-price | ${speed(theirs)} |`);
	if (flags.misses) {
		console.log('\nrevisit misses (text | hint | want | got):');
		for (const { example, parsed } of [...mine.misses, ...mineXfail.misses]) {
			console.log(
				`${example.list.replace('PRICE_PARSING_', '')}: ${JSON.stringify(example.price_raw)} | ${JSON.stringify(example.currency_raw)} | ` +
					`${example.amount} ${example.currency} | ${JSON.stringify(parsed)}`,
			);
		}
	}
}

// The held-out set: texts alone, scored per source and in all.
function heldOut() {
	const held = JSON.parse(fs.readFileSync(heldOutFile, 'utf8'));
	const bySource = new Map();
	for (const example of held.examples) bySource.set(example.source, [...(bySource.get(example.source) ?? []), example]);
	// parse-price gives no currency, so only its amounts are misses; parsePrice's list
	// has its currency misses too.
	const amountMisses = (result) =>
		result.misses.filter(({ example, parsed }) => !sameAmount(parsed?.amount === 0 && example.amount === null ? undefined : parsed?.amount, example.amount));
	const signOnly = (result) =>
		amountMisses(result).filter(
			({ example, parsed }) => example.amount !== null && parsed?.amount !== undefined && sameAmount(Math.abs(parsed.amount), Math.abs(example.amount)),
		).length;
	const rows = [];
	const all = { mine: score(held.examples, oursAlone), npm: score(held.examples, theirs, { zeroMeansNone: true }) };
	for (const [source, examples] of [...bySource, ['all', held.examples]]) {
		const mine = source === 'all' ? all.mine : score(examples, oursAlone);
		const npm = source === 'all' ? all.npm : score(examples, theirs, { zeroMeansNone: true });
		rows.push(
			`| ${source} | ${examples.length} | ${mine.amounts} (${percent(mine.amounts, mine.count)}) | ${mine.currencies} of ${mine.withCurrency} ` +
				`(${percent(mine.currencies, mine.withCurrency)}) | ${npm.amounts} (${percent(npm.amounts, npm.count)}) |`,
		);
	}
	console.log(
		`\nHeld out: ${held.examples.length} price strings from ${bySource.size} other parsers' test suites (${path.relative(ROOT, heldOutFile)}), ` +
			`the text alone\n`,
	);
	console.log('| source | examples | parsePrice amount right | parsePrice currency right (where the source gives one) | npm parse-price amount right |');
	console.log('|---|---:|---:|---:|---:|');
	for (const line of rows) console.log(line);
	console.log(
		`\nOf the amounts missed, right but for the sign: parsePrice ${signOnly(all.mine)} of ${all.mine.count - all.mine.amounts}, ` +
			`parse-price ${signOnly(all.npm)} of ${all.npm.count - all.npm.amounts}.`,
	);
	if (flags.misses) {
		for (const [name, misses] of [
			['revisit parsePrice', all.mine.misses],
			['npm parse-price', amountMisses(all.npm)],
		]) {
			console.log(`\n${name} misses on the held-out set (source | text | want | got):`);
			for (const { example, parsed } of misses) {
				console.log(`${example.source}: ${JSON.stringify(example.price_raw)} | ${example.amount} ${example.currency} | ${JSON.stringify(parsed)}`);
			}
		}
	}
}

if (set) zyte();
if (heldOutFile) heldOut();
