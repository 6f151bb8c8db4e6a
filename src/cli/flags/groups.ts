import type { Argv, Options } from 'yargs';

import { GROUP, type FlagGroup } from '../../config/groups.js';

export { GROUP, type FlagGroup };

/** A flag as the run commands' tables define it: a yargs option that must name its help heading. */
export type Flag = Options & { group: FlagGroup };

/**
 * Adds the flags to a command, each under its heading, the headings in GROUP's order
 * (yargs shows them in the order they are first named, which the tables' order is not).
 * Call it after the positionals, which yargs shows first.
 *
 * @example
 * groupedFlags(yargs.positional('urls', { ... }), { ...sweepFlagOptions, ...warcFlagOptions })
 */
export function groupedFlags<T>(yargs: Argv<T>, flags: Record<string, Flag>): Argv<T> {
	for (const heading of Object.values(GROUP)) {
		const keys = Object.keys(flags).filter((key) => flags[key]?.group === heading);
		if (keys.length > 0) yargs.group(keys, heading);
	}
	return yargs.options(flags) as unknown as Argv<T>;
}

/**
 * A flag that takes one value each time it is given and may be given again, as curl's -H
 * and grep's -e: `--exclude .a --exclude .b URL` is two selectors and a URL. `array` alone
 * would take every word up to the next flag, the URLs too; `nargs: 1` stops it at one
 * (yargs-parser's eatArray), and repeats still gather into one list.
 *
 * @example
 * exclude: { group: GROUP.content, ...repeatable, default: [], describe: '… (repeatable)' }
 */
export const repeatable = { type: 'string', array: true, nargs: 1, requiresArg: true } as const satisfies Options;

/** `--quiet` (`-q`) of the commands that run a pipeline: no progress or summary on stderr. */
export const quietFlag: Flag = { group: GROUP.io, type: 'boolean', alias: 'q', default: false, describe: 'No progress or summary on stderr' };
