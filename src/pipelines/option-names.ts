import { nearest } from '../base/util/suggest.js';
import { trustDefaults } from '../net/hosts/trust-options.js';
import { rowsInOrder, optionHints } from '../config/setting-row.js';
import { FILE_ORDER, sweepSettings } from '../config/settings.js';
import type { SweepOptions } from './sweep-options.js';
import { OptionError } from '../base/errors/index.js';

/** The top-level option a row sets: `trust` for `trust.auditRate`. */
type TopOf<S> = S extends `${infer P}.${string}` ? P : S;
type RowOption = TopOf<(typeof sweepSettings)[keyof typeof sweepSettings]['option']>;

/** The options no setting gives: the library's own, and those the rule and access flags build. */
const LIBRARY_ONLY = [
	'retryDelayMs',
	'highWater',
	'candidates',
	'rules',
	'learnNoise',
	'applyNoise',
	'capture',
	'headers',
	'proxy',
	'cookies',
	'cookieJar',
] as const;

// A new option of SweepOptions is either a setting's (a row) or one of the library's own:
// this fails to compile until it is one of them.
const everyOption: Record<Exclude<keyof SweepOptions, RowOption | (typeof LIBRARY_ONLY)[number]>, never> = {};

/** Every option `normaliseSweepOptions` takes: the settings' options and the library's own. */
const SWEEP_OPTION_NAMES: ReadonlySet<string> = new Set([
	...rowsInOrder(sweepSettings, FILE_ORDER).map(([, row]) => row.option.split('.')[0]!),
	...LIBRARY_ONLY,
	...Object.keys(everyOption),
]);

const RULES_HINT =
	"content rules go in `rules`, a list of rule objects as a rules file holds them (the CLI's --select main --text is rules: " +
	"[{ select: ['main'], text: true }])";

/** The CLI's flags whose library option is spelt otherwise: a unit in the name, or another place (from the settings), or not a setting at all. */
const FLAG_HINTS: Readonly<Record<string, string>> = {
	select: RULES_HINT,
	text: RULES_HINT,
	ignore: RULES_HINT,
	header: 'did you mean `headers`, a list of { name, value } rules?',
	...optionHints(sweepSettings),
};

/**
 * Refuses an option the sweep does not take, naming the one meant: the CLI's flag names
 * that are spelt otherwise here (`select` is a rule in `rules`, `timeout` is `timeoutMs`),
 * else the nearest option. A misspelt option would otherwise be dropped without a word.
 * Throws OptionError, as the other option checks do.
 *
 * @example
 * checkOptionNames({ select: ['main'] }) // OptionError: Unknown sweep option `select`: content rules go in `rules`, …
 */
export function checkOptionNames(input: object): void {
	for (const name of Object.keys(input)) {
		if (SWEEP_OPTION_NAMES.has(name)) continue;
		const camel = name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
		const near = nearest(name, [...SWEEP_OPTION_NAMES]);
		const hint = FLAG_HINTS[camel] ?? (near ? `did you mean \`${near}\`?` : `the options are ${[...SWEEP_OPTION_NAMES].join(', ')}`);
		throw new OptionError(name, `Unknown sweep option \`${name}\`: ${hint}`);
	}
	const trust = (input as { trust?: unknown }).trust;
	if (typeof trust !== 'object' || trust === null) return;
	for (const name of Object.keys(trust)) {
		if (Object.hasOwn(trustDefaults, name)) continue;
		const near = nearest(name, Object.keys(trustDefaults));
		throw new OptionError(
			`trust.${name}`,
			`Unknown trust option \`${name}\`: ${near ? `did you mean \`${near}\`?` : `the options are ${Object.keys(trustDefaults).join(', ')}`}`,
		);
	}
}
