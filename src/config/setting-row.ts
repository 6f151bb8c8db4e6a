import { UsageError } from '../base/errors/index.js';
import type { FlagGroup } from './groups.js';

/**
 * One flag, written once: its --help heading and one line of doc, its default as a user
 * writes it, its check, and how yargs reads it. The yargs flags (`cli/flags/setting.ts`)
 * and the type of the value a command's handler gets (`ValueOf`) are made from it. A
 * setting that a pipeline file and the library take too is a `SettingRow`.
 *
 * @example
 * warc: flagRow({ group: GROUP.feeds, doc: 'Archive the run in this WARC/1.1 file', type: 'string' })
 */
export interface FlagRow<V = unknown> {
	/** Its --help heading. */
	group: FlagGroup;
	/** One line of doc: what --help says. */
	doc: string;
	/** The default as a user writes it (`30s`, `10MiB`), which --help and the schema show; none: unset. */
	default?: unknown;
	/** --help's `[default: …]` where the default is not a value (the clock, an environment variable). */
	defaultDescription?: string;
	/** The check of a written value: a UsageError naming the flag, or the value in the setting's unit. */
	parse?: (value: unknown) => V;
	/** false: yargs hands the value as written and the command checks it with `parse` (where that check waits for another flag's). */
	coerce?: false;
	/** yargs' type where it is not read by `parse` alone. */
	type?: 'string' | 'boolean';
	/** The words it takes: the flag's choices, the schema's enum and the library's check. */
	choices?: readonly string[];
	/** Given once per value and repeated (`--accept-churn a --accept-churn b`), as `repeatable`. */
	repeatable?: true;
	/** false where yargs must hand an empty value to the check rather than refuse it. */
	requiresArg?: false;
	/** Another name it answers to, as curl's `-H`. */
	alias?: string;
	/** A flag name that still works, hidden, with a note on stderr that it was renamed. */
	renamedFrom?: string;
}

/**
 * One setting, written once: the CLI flag (its key in the table, and a `FlagRow`), the
 * pipeline file's stage and key, the library's option and the unit between them, the
 * schema of a written value. The yargs flags (`cli/flags/setting.ts`), the pipeline
 * schema's stage options (`config/schema.ts`), the library's option names and their hints
 * (`pipelines/option-names.ts`), the options from settings (`optionsOf`) and the
 * defaults of environment variables (`envValues`) are all made from these rows.
 *
 * @example
 * timeout: setting({ group: GROUP.requests, doc: 'Seconds allowed for one attempt', default: 15, parse: numberValue('timeout'),
 *   stage: 'probe', schema: { type: 'number', exclusiveMinimum: 0 }, option: 'timeoutMs', unit: 'seconds' })
 */
export interface SettingRow<V = unknown> extends FlagRow<V> {
	/** What the pipeline schema says, where it says it otherwise (a file has no --flags to name). */
	schemaDoc?: string;
	/** The environment variable that gives its default when it is unset (read by `envValues`). */
	env?: string;
	/** The pipeline stage that takes it, and its key there (default: the flag in camelCase). */
	stage: 'due' | 'probe' | 'compare' | 'churn-guard';
	key?: string;
	/** The JSON Schema of a value in a pipeline file; the default and the description are added. */
	schema: Record<string, unknown>;
	/** false: the schema shows no default (its description says what it is). */
	schemaDefault?: false;
	/** The library option it sets: a name, or `parent.name` for one inside an object (`trust.auditRate`). */
	option: string;
	/** `seconds`: written in seconds, the option in ms; `ms` and `bytes`: the check already gives them. */
	unit?: Unit;
	/** The option's value where it is not the checked value in its unit (`all` for a list). */
	toOption?: (value: V) => unknown;
}

export type Unit = 'seconds' | 'ms' | 'bytes';

/** Each unit's conversion from the checked value to the option's, written once. */
const TO_OPTION: Record<Unit, (value: number) => number> = {
	seconds: (value) => Math.round(value * 1000),
	ms: (value) => value,
	bytes: (value) => value,
};

/** How a library option name tells its unit, for the hint that names it. */
export const UNIT_NOTE: Record<Unit, (flag: string) => string> = {
	seconds: (flag) => ` (milliseconds; --${flag} is in seconds)`,
	ms: () => ' (milliseconds)',
	bytes: () => '',
};

/** A table of rows by flag name. */
// biome-ignore lint/suspicious/noExplicitAny: a table holds rows of every value type; a row's own type stays exact where it is written (setting())
export type SettingTable = Record<string, SettingRow<any>>;

/** A table of flags' rows by flag name (settings' rows among them). */
// biome-ignore lint/suspicious/noExplicitAny: a table holds rows of every value type; a row's own type stays exact where it is written (flagRow())
export type FlagTable = Record<string, FlagRow<any>>;

/** A row's value type, as its check gives it (a boolean for a switch, the choices for a choice; as written where the command checks it). */
export type ValueOf<R> = R extends { coerce: false }
	? R extends { repeatable: true }
		? string[]
		: string | undefined
	: R extends { parse: (value: unknown) => infer V }
		? V
		: R extends { type: 'boolean' }
			? boolean
			: R extends { choices: readonly (infer C)[] }
				? C
				: R extends { repeatable: true }
					? string[]
					: string | undefined;

/** The checked values of a table, by flag name: what a command's handler gets for them. */
export type ValuesOf<T extends FlagTable> = { [K in keyof T]: ValueOf<T[K]> };

/**
 * A row, its value type inferred from its check: `setting({ … parse: integerValue('x', 1) })`.
 *
 * @example
 * retries: setting({
 * 	group: GROUP.requests, doc: 'Retries', default: 2, parse: integerValue('retries', 0),
 * 	stage: 'probe', schema: { type: 'integer', minimum: 0 }, option: 'retries',
 * })
 */
// biome-ignore lint/suspicious/noExplicitAny: a table holds rows of every value type; a row's own type stays exact where it is written (setting())
export const setting = <const R extends SettingRow<any>>(row: R): R => row;

/**
 * A flag's row, its value type inferred from its check: `flagRow({ … parse: integerValue('x', 1) })`.
 *
 * @example
 * 'atom-max': flagRow({ group: GROUP.feeds, doc: 'Entries the Atom feed keeps', default: 200, parse: integerValue('atom-max', 1) })
 */
// biome-ignore lint/suspicious/noExplicitAny: a table holds rows of every value type; a row's own type stays exact where it is written (flagRow())
export const flagRow = <const R extends FlagRow<any>>(row: R): R => row;

/** A flag's name in a pipeline file and in the library's camelCase. */
export const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The row's key in a pipeline file's stage. */
// biome-ignore lint/suspicious/noExplicitAny: a table holds rows of every value type; a row's own type stays exact where it is written (setting())
export const keyOf = (flag: string, row: SettingRow<any>): string => row.key ?? camel(flag);

/**
 * The library options of checked values (a command's flags, a pipeline file's stage
 * options), each converted by its unit and set at its option's place: `trust.auditRate`
 * inside `trust`. A value left unset is left out, so that the library's default holds.
 *
 * @example
 * optionsOf(sweepSettings, { timeout: 2.5, audit: 0.1 }) // { timeoutMs: 2500, trust: { auditRate: 0.1 } }
 */
export function optionsOf(table: SettingTable, values: Record<string, unknown>): Record<string, unknown> {
	const options: Record<string, unknown> = {};
	for (const [flag, row] of Object.entries(table)) {
		const value = values[flag];
		if (value === undefined) continue;
		const option = row.toOption ? row.toOption(value) : row.unit ? TO_OPTION[row.unit](value as number) : value;
		const [parent, name] = row.option.includes('.') ? row.option.split('.') : [undefined, row.option];
		const at = parent === undefined ? options : ((options[parent] ??= {}) as Record<string, unknown>);
		at[name!] = option;
	}
	return options;
}

/**
 * Every row's default, checked as a written value is and converted to its option: the
 * library's defaults for these settings.
 *
 * @example
 * optionDefaults(sweepSettings).maxCrawlDelayMs // 30000
 */
export function optionDefaults(table: SettingTable): Record<string, unknown> {
	return optionsOf(
		table,
		Object.fromEntries(Object.entries(table).map(([flag, row]) => [flag, row.default === undefined || !row.parse ? row.default : row.parse(row.default)])),
	);
}

/**
 * The values the environment gives settings left unset (a row's `env`), checked as the
 * setting's own; an empty variable is unset. Called once per run, at its edge (a
 * command, a pipeline's compile, a library call), with that run's environment.
 *
 * @example
 * envValues(sweepSettings, { REVISIT_ROBOTS: 'ignore' }) // { robots: 'ignore' }
 */
export function envValues(table: SettingTable, env: Record<string, string | undefined>): Record<string, unknown> {
	const values: Record<string, unknown> = {};
	for (const [flag, row] of Object.entries(table)) {
		const text = row.env === undefined ? undefined : env[row.env]?.trim();
		if (text === undefined || text === '') continue;
		try {
			values[flag] = row.parse ? row.parse(text) : text;
		} catch (error) {
			// The check names the flag; the value came from the variable, so it names both.
			if (error instanceof UsageError) throw new UsageError(error.message.replace(`--${flag} `, `--${flag} (or $${row.env}) `), { cause: error, help: false });
			throw error;
		}
	}
	return values;
}

/**
 * A stage's options in the pipeline schema: each row of that stage under its key, with
 * its default and its description.
 *
 * @example
 * stageProperties(sweepSettings, 'churn-guard').maxChurn // { type: 'number', minimum: 0, maximum: 1, default: 0.9, description: '…' }
 */
export function stageProperties<T extends SettingTable, S extends SettingRow['stage']>(
	table: T,
	stage: S,
	order: readonly string[] = [],
): StageProperties<T, S> {
	return Object.fromEntries(
		rowsInOrder(table, order)
			.filter(([, row]) => row.stage === stage)
			.map(([flag, row]) => {
				const schema = row.choices ? { enum: row.choices, ...row.schema } : row.schema;
				const shown = row.default !== undefined && row.schemaDefault !== false ? { default: row.default } : {};
				return [keyOf(flag, row), { ...schema, ...shown, description: row.schemaDoc ?? row.doc }];
			}),
	) as StageProperties<T, S>;
}

/**
 * The rows in a given order of their flags (how a pipeline file's keys were always
 * listed, which messages show), those it does not name after them in the table's order:
 * a new row needs no place in it.
 *
 * @example
 * rowsInOrder(sweepSettings, ['concurrency'])[0] // ['concurrency', { … }]
 */
export function rowsInOrder(table: SettingTable, order: readonly string[]): Array<[string, SettingRow]> {
	const rank = (flag: string) => (order.includes(flag) ? order.indexOf(flag) : order.length);
	return Object.entries(table).sort(([a], [b]) => rank(a) - rank(b));
}

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;

/** A stage's options as TypeScript sees them, so that the pipeline file's type (`FromSchema`) keeps each key and its schema. */
export type StageProperties<T extends SettingTable, S> = {
	[F in keyof T as T[F] extends { stage: S } ? (T[F] extends { key: infer K extends string } ? K : Camel<F & string>) : never]: T[F]['schema'] &
		(T[F] extends { choices: infer C } ? { enum: C } : unknown) & { description: string };
};

/**
 * The hints for a library option written as its flag or its pipeline key, where the
 * option is spelt otherwise (a unit in its name, or inside another option).
 *
 * @example
 * optionHints(sweepSettings).timeout // 'did you mean `timeoutMs` (milliseconds; --timeout is in seconds)?'
 */
export function optionHints(table: SettingTable): Record<string, string> {
	const hints: Record<string, string> = {};
	for (const [flag, row] of Object.entries(table)) {
		const [parent, name] = row.option.includes('.') ? row.option.split('.') : [undefined, row.option];
		const meant = parent === undefined ? `\`${name}\`` : `\`${parent}: { ${name} }\``;
		const hint = `did you mean ${meant}${row.unit ? UNIT_NOTE[row.unit](flag) : ''}?`;
		for (const written of [camel(flag), keyOf(flag, row)]) if (written !== row.option) hints[written] = hint;
	}
	return hints;
}
