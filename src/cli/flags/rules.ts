import { readFileSync } from 'node:fs';
import { GROUP, repeatable, type FlagsFor, type ValuedFlag } from './groups.js';
import type { RuleSpec } from '../../domain/content/rules.js';
import { UsageError } from '../../base/errors/index.js';
import { ruleSettings } from '../../config/settings.js';

/** Parsed content-rule flags of sweep, fetch and crawl. */
export interface RuleFlags {
	select: string[];
	exclude: string[];
	text: boolean;
	ignore: string[];
	rules?: string;
	'learn-noise': boolean;
	product: boolean;
	price: string[];
	availability: string[];
}

/** `--diff` of fetch and crawl. */
export const diffFlagOption: ValuedFlag<boolean> = {
	group: GROUP.io,
	type: 'boolean',
	default: false,
	describe: 'Next to each changed body with a previous version in --out, write a unified diff of what counts (FILE.diff, named in index.ndjson)',
};

/** `--select`, `--exclude`, `--text`, `--ignore`, `--rules FILE`. */
export const ruleFlagOptions: FlagsFor<RuleFlags> = {
	select: {
		group: GROUP.content,
		...repeatable,
		default: ruleSettings.select.default,
		describe: 'Only the elements this CSS selector matches count (repeatable); noise elsewhere is not a change',
	},
	exclude: {
		group: GROUP.content,
		...repeatable,
		default: ruleSettings.exclude.default,
		describe: 'Remove the elements this CSS selector matches before counting, with or without --select (repeatable): a timestamp, a "recently viewed" block',
	},
	text: {
		group: GROUP.content,
		type: 'boolean',
		default: false,
		describe: 'Only the visible text counts (scripts, styles and tags dropped, whitespace collapsed)',
	},
	ignore: {
		group: GROUP.content,
		...repeatable,
		default: [],
		describe: 'Remove what this regular expression matches before hashing (repeatable); for JSON, drop keys it matches',
	},
	rules: {
		group: GROUP.content,
		type: 'string',
		requiresArg: true,
		describe: 'A JSON file of content rules, in order, the first matching a URL wins (see docs/6-noise.md)',
	},
	'learn-noise': {
		group: GROUP.content,
		type: 'boolean',
		default: false,
		describe: 'Fetch a new or changed page again at once; what differs between the two is noise, left out of its hash from then on',
	},
	product: {
		group: GROUP.content,
		type: 'boolean',
		default: false,
		describe:
			"Only the page's offer counts: its own product's price, currency and availability from JSON-LD, " +
			'microdata, RDFa or OpenGraph; the reason says what moved (price, availability)',
	},
	price: {
		group: GROUP.content,
		...repeatable,
		default: ruleSettings.price.default,
		describe: 'With no structured data on a page, read the price from the text of the element this CSS selector matches (repeatable; implies --product)',
	},
	availability: {
		group: GROUP.content,
		...repeatable,
		default: ruleSettings.availability.default,
		describe: 'With no structured data on a page, read the availability ("In stock", "Sold out") from this element\'s text (repeatable; implies --product)',
	},
};

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
	const select = ruleSettings.select.parse!(flags.select) as string[];
	const exclude = ruleSettings.exclude.parse!(flags.exclude) as string[];
	const price = ruleSettings.price.parse!(flags.price ?? []) as string[];
	const availability = ruleSettings.availability.parse!(flags.availability ?? []) as string[];
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
