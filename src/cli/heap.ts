import { setFlagsFromString } from 'node:v8';

/** Node flags by which the user has made V8's heap sizing their own choice: then it is left alone. */
const OWN_CHOICE = /^--(?:no-)?(?:optimize[-_]for[-_]size|heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)\b/;

/** A run that reads a whole list to rank it: a budget, or `revisit due`. */
const RANKS = /^--(?:host-)?budget(?:=|$)/;

/**
 * Whether a command line ranks a whole list under a budget (`--budget`, `--host-budget`,
 * `revisit due`): those runs favour memory, the others speed.
 *
 * @example
 * ranksWholeList(['sweep', '--budget', '100000']) // true
 */
export function ranksWholeList(args: readonly string[]): boolean {
	return args[0] === 'due' || args.some((arg) => RANKS.test(arg));
}

/**
 * Has V8 keep its heap close to what is live (`--optimize-for-size`) for a run that ranks
 * a whole list under a budget (`ranksWholeList`), unless the user's own node flags or
 * NODE_OPTIONS say how to size it. Other runs are left at V8's defaults: the flag costs
 * about half as much CPU again in the collector (bench/BUDGET.md), and the all-304 sweep's
 * speed is measured against a plain got loop (bench/PERF.md). V8 otherwise lets the heap grow to
 * several times its live size while a run's garbage is high: a `--budget 100000` sweep of
 * 1M stored URLs with ~60 MiB live peaked at 351 MiB of anonymous memory, 121 to 135 MiB
 * with this (bench/BUDGET.md), for more CPU time in the collector. For the process
 * entry only (bin/revisit.js): it sets a process-wide flag, which `main` must not.
 * Returns whether it set it.
 *
 * @example
 * favourMemory(['sweep', '--budget', '1000'], process.execArgv, process.env.NODE_OPTIONS) // true, unless e.g. `node --max-old-space-size=4096 bin/revisit.js`
 */
export function favourMemory(
	args: readonly string[] = process.argv.slice(2),
	execArgv: readonly string[] = process.execArgv,
	nodeOptions: string | undefined = process.env['NODE_OPTIONS'],
	set: (flags: string) => void = setFlagsFromString,
): boolean {
	if (!ranksWholeList(args)) return false;
	const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
	if (given.some((flag) => OWN_CHOICE.test(flag))) return false;
	set('--optimize-for-size');
	return true;
}
