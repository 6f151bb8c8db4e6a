import type { Options } from 'yargs';
import type { Setting } from '../../config/settings.js';
import type { FlagRow, FlagTable, SettingTable, ValueOf } from '../../config/setting-row.js';
import { repeatable, type Flag, type ValuedFlag, type ValueMark } from './groups.js';

/** A setting's flag says the type its check gives, where the setting's type shows it. */
type CheckedValue<S> = S extends { parse: (value: unknown) => infer V } ? ValueMark<V> : unknown;

/**
 * A setting as yargs takes it: its default, and its check as `coerce` (a bad value names
 * the flag and exits 2). The flag table adds the type and the description.
 *
 * @example
 * lease: { group: GROUP.scale, ...flagOf(watchSettings.lease), requiresArg: true, describe: 'How long a claimed URL is held' }
 */
export function flagOf<S extends Setting>(setting: S): Omit<Options, 'group'> & CheckedValue<S> {
	// CheckedValue is a type only: the flag's value type, which its coerce gives.
	return <Omit<Options, 'group'> & CheckedValue<S>>{
		...(setting.default === undefined ? {} : { default: setting.default }),
		...(setting.parse ? { coerce: setting.parse } : {}),
	};
}

/**
 * A row of a settings table as a yargs flag: its heading, its doc as the description,
 * its default and check, its type and choices; a value is required unless it is a
 * switch, a choice, or the row says otherwise.
 *
 * @example
 * flagOfRow(sweepSettings.timeout) // { group: 'Requests:', describe: 'Seconds allowed for one attempt', default: 15, coerce: …, requiresArg: true }
 */
export function flagOfRow(row: FlagRow): Flag {
	const takesWord = row.type !== 'boolean' && row.choices === undefined && row.requiresArg !== false;
	return {
		group: row.group,
		...flagOf(row.coerce === false ? { default: row.default } : row),
		...(row.alias ? { alias: row.alias } : {}),
		...(row.type ? { type: row.type } : {}),
		...(row.choices ? { choices: row.choices } : {}),
		...(row.repeatable ? repeatable : takesWord ? { requiresArg: true } : {}),
		...(row.defaultDescription ? { defaultDescription: row.defaultDescription } : {}),
		describe: row.doc,
	};
}

/**
 * The yargs flags of a settings table, in its order (each heading's flags in --help
 * follow it), and for a row renamed, its old name, hidden, taking the same value
 * (`renamedFlags` says so when it is used).
 *
 * @example
 * const sweepFlagOptions = flagsOf(sweepSettings)
 */
export function flagsOf<T extends FlagTable>(table: T): { [K in keyof T]: ValuedFlag<ValueOf<T[K]>> } {
	const flags: Record<string, Flag> = {};
	for (const [name, row] of Object.entries(table)) flags[name] = flagOfRow(row);
	for (const [name, row] of Object.entries(table)) {
		if (row.renamedFrom !== undefined) flags[row.renamedFrom] = { ...flagOfRow(row), hidden: true, describe: `Now --${name}` };
	}
	return flags as { [K in keyof T]: ValuedFlag<ValueOf<T[K]>> };
}

/**
 * A flag given by its old name (a row's `renamedFrom`): its value goes to the new name,
 * unless that is given too, and stderr says once that it was renamed on this command.
 *
 * @example
 * renamedFlags(args, sweepSettings, 'sweep', io.stderr) // stderr: revisit: --rate is now --host-rate on sweep (requests per second per origin)
 */
export function renamedFlags(args: Record<string, unknown>, table: SettingTable, command: string, stderr: { write(text: string): unknown }): void {
	for (const [name, row] of Object.entries(table)) {
		if (row.renamedFrom === undefined || args[row.renamedFrom] === undefined) continue;
		stderr.write(
			`revisit: --${row.renamedFrom} is now --${name} on ${command} (${row.doc.replace(/ \[.*\]$/, '').toLowerCase()}); --${row.renamedFrom} still works\n`,
		);
		args[name] ??= args[row.renamedFrom];
	}
}
