import type { ArgumentsCamelCase, Argv, CommandModule, InferredOptionType, Options } from 'yargs';

import { GROUP, type FlagGroup } from '../../config/groups.js';

export { GROUP, type FlagGroup };

/** A flag as the run commands' tables define it: a yargs option that must name its help heading. */
export type Flag = Options & { group: FlagGroup };

/** The key, in types only, by which a ValuedFlag says its value type: no flag carries it. */
type ValueKey = '~value';

/**
 * A flag that says the type of the value its handler gets, where yargs cannot tell it
 * from the definition (a row's check, a table typed as a whole). Only a type: nothing
 * is added to the flag.
 *
 * @example
 * const flags: FlagsFor<{ warc?: string }> = { warc: { group: GROUP.feeds, type: 'string', describe: '…' } }
 */
export type ValuedFlag<V> = Flag & ValueMark<V>;

/** The type a flag says its value has (see ValuedFlag). */
export type ValueMark<V> = { readonly [K in ValueKey]?: [V] };

/** A flag table whose values have these types, by flag name. */
export type FlagsFor<V> = { [K in keyof V]-?: ValuedFlag<V[K]> };

/** The value a handler gets for a flag: the type a ValuedFlag says, else what yargs infers from its definition. */
export type ArgOf<F> = ValueKey extends keyof F
	? Exclude<F[ValueKey & keyof F], undefined> extends [infer V]
		? V
		: never
	: F extends Options
		? InferredOptionType<F>
		: never;

/** The values a handler gets for a table of flags, by flag name. */
export type ArgsOf<F> = { [K in keyof F]: ArgOf<F[K]> };

/**
 * The arguments a command's builder declares (positionals and flags), for its handler.
 *
 * @example
 * type SweepArgs = ArgvOf<ReturnType<typeof sweepBuilder>>
 */
export type ArgvOf<A> = A extends Argv<infer T> ? T : never;

/**
 * Adds the flags to a command, each under its heading, the headings in GROUP's order
 * (yargs shows them in the order they are first named, which the tables' order is not).
 * Call it after the positionals, which yargs shows first.
 *
 * @example
 * groupedFlags(yargs.positional('urls', { ... }), { ...sweepFlagOptions, ...warcFlagOptions })
 */
export function groupedFlags<T, F extends Record<string, Flag>>(yargs: Argv<T>, flags: F): Argv<Omit<T, keyof F> & ArgsOf<F>> {
	for (const heading of Object.values(GROUP)) {
		const keys = Object.keys(flags).filter((key) => flags[key]?.group === heading);
		if (keys.length > 0) yargs.group(keys, heading);
	}
	// yargs would infer each flag's type from its definition; a ValuedFlag says it instead.
	return yargs.options(flags) as Argv<Omit<T, keyof F>> as Argv<Omit<T, keyof F> & ArgsOf<F>>;
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
export const quietFlag = { group: GROUP.io, type: 'boolean', alias: 'q', default: false, describe: 'No progress or summary on stderr' } as const satisfies Flag;

/**
 * A command whose handler's arguments are the ones its builder declares, so that no type
 * is written beside the flags: identity at run time, the link between the two for tsc.
 *
 * @example
 * typedCommand({ command: 'stats', describe: '…', builder: (yargs) => storeOption(yargs, env), handler: (args) => args.store })
 */
export function typedCommand<A>(module: {
	command: string;
	describe: string;
	builder: (yargs: Argv) => Argv<A>;
	handler: (args: ArgumentsCamelCase<A>) => void | Promise<void>;
}): CommandModule<object, A> {
	return module;
}
