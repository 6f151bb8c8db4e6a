import { readFileSync } from 'node:fs';
import { GROUP, type ValuedFlag } from './groups.js';
import { flagRow, type ValuesOf } from '../../config/setting-row.js';
import { selectorsValue } from '../../config/values.js';
import { flagsOf } from './setting.js';
import type { RuleSpec } from '../../domain/content/rules.js';
import { UsageError } from '../../base/errors/index.js';

/** `--diff` of fetch and crawl. */
export const diffFlagOption: ValuedFlag<boolean> = {
	group: GROUP.io,
	type: 'boolean',
	default: false,
	describe: 'Next to each changed body with a previous version in --out, write a unified diff of what counts (FILE.diff, named in index.ndjson)',
};

/**
 * The content-rule flags, one row each. The CSS selectors are checked by `rulesFrom`
 * (coerce: false), not as yargs' coerce, which keeps only the message: a selector's error
 * is not a --help matter; a rule file's and a pipeline's rules check the same fields
 * through the schema's `selector` format.
 *
 * @example
 * ruleSettings.exclude.parse(['.ts']) // ['.ts']
 */
export const ruleSettings = {
	select: flagRow({
		group: GROUP.content,
		doc: 'Only the elements this CSS selector matches count (repeatable); noise elsewhere is not a change',
		repeatable: true,
		default: [],
		parse: selectorsValue('select'),
		coerce: false,
	}),
	exclude: flagRow({
		group: GROUP.content,
		doc: 'Remove the elements this CSS selector matches before counting, with or without --select (repeatable): a timestamp, a "recently viewed" block',
		repeatable: true,
		default: [],
		parse: selectorsValue('exclude'),
		coerce: false,
	}),
	text: flagRow({
		group: GROUP.content,
		doc: 'Only the visible text counts (scripts, styles and tags dropped, whitespace collapsed)',
		type: 'boolean',
		default: false,
	}),
	ignore: flagRow({
		group: GROUP.content,
		doc: 'Remove what this regular expression matches before hashing (repeatable); for JSON, drop keys it matches',
		repeatable: true,
		default: [],
	}),
	rules: flagRow({
		group: GROUP.content,
		doc: 'A JSON file of content rules, in order, the first matching a URL wins (see docs/6-noise.md)',
		type: 'string',
	}),
	'learn-noise': flagRow({
		group: GROUP.content,
		doc: 'Fetch a new or changed page again at once; what differs between the two is noise, left out of its hash from then on',
		type: 'boolean',
		default: false,
	}),
	product: flagRow({
		group: GROUP.content,
		doc:
			"Only the page's offer counts: its own product's price, currency and availability from JSON-LD, microdata, RDFa " +
			'or OpenGraph; the reason says what moved (price, availability)',
		type: 'boolean',
		default: false,
	}),
	price: flagRow({
		group: GROUP.content,
		doc: 'With no structured data on a page, read the price from the text of the element this CSS selector matches (repeatable; implies --product)',
		repeatable: true,
		default: [],
		parse: selectorsValue('price'),
		coerce: false,
	}),
	availability: flagRow({
		group: GROUP.content,
		doc: 'With no structured data on a page, read the availability ("In stock", "Sold out") from this element\'s text (repeatable; implies --product)',
		repeatable: true,
		default: [],
		parse: selectorsValue('availability'),
		coerce: false,
	}),
};

/** Parsed content-rule flags of sweep, fetch, crawl, watch and rules test. */
export type RuleFlags = ValuesOf<typeof ruleSettings>;

/** `--select`, `--exclude`, `--text`, `--ignore`, `--rules FILE` and the product's, from their rows. */
export const ruleFlagOptions = flagsOf(ruleSettings);

/**
 * The run's rule list: the rules file's rules, then one rule for every URL from the flags.
 *
 * @example
 * await rulesFrom({ select: ['.price'], exclude: ['.price .was'], text: false, ignore: [] }) // [{ select: ['.price'], exclude: ['.price .was'] }]
 */
export async function rulesFrom(flags: RuleFlags): Promise<RuleSpec[] | undefined> {
	const rules: RuleSpec[] = [];
	if (flags.rules !== undefined) {
		let text: string;
		try {
			text = readFileSync(flags.rules, 'utf8');
		} catch (error) {
			throw new UsageError(`cannot read --rules ${flags.rules}: ${(error as Error).message}`);
		}
		// Ajv (the rule list's schema) loads only for a run given a rules file.
		const { validateRules } = await import('../../config/rule-list.js');
		rules.push(...validateRules(text, flags.rules));
	}
	// Checked here, not as yargs' coerce, which keeps only the message: a selector's error is not a --help matter.
	const select = ruleSettings.select.parse(flags.select);
	const exclude = ruleSettings.exclude.parse(flags.exclude);
	const price = ruleSettings.price.parse(flags.price ?? []);
	const availability = ruleSettings.availability.parse(flags.availability ?? []);
	const product = flags.product === true || price.length > 0 || availability.length > 0;
	if (select.length > 0 || exclude.length > 0 || flags.text || flags.ignore.length > 0 || product) {
		rules.push({
			...(select.length ? { select } : {}),
			...(exclude.length ? { exclude } : {}),
			...(flags.text ? { text: true } : {}),
			...(flags.ignore.length ? { ignore: flags.ignore } : {}),
			...(product ? { product: true } : {}),
			...(price.length ? { price } : {}),
			...(availability.length ? { availability } : {}),
		});
	}
	return rules.length > 0 ? rules : undefined;
}

/** Fetch and crawl refuse `--learn-noise`: it is a sweep's, where changes are first judged. */
export function refuseLearnNoise(flags: Pick<RuleFlags, 'learn-noise'>): void {
	if (flags['learn-noise']) throw new UsageError("--learn-noise is a sweep's: revisit sweep --learn-noise");
}
