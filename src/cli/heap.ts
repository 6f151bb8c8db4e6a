import { setFlagsFromString } from 'node:v8';

/** Node flags by which the user has made V8's heap sizing their own choice: then it is left alone. */
const OWN_CHOICE = /^--(?:no-)?(?:optimize[-_]for[-_]size|heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)\b/;

/**
 * Has V8 keep its heap close to what is live (`--optimize-for-size`), unless the user's
 * own node flags or NODE_OPTIONS say how to size it. V8 otherwise lets the heap grow to
 * several times its live size while a run's garbage is high: a `--budget 100000` sweep of
 * 1M stored URLs with ~60 MiB live peaked at 351 MiB of anonymous memory, 121 to 135 MiB
 * with this (bench/BUDGET.md), for more CPU time in the collector. For the process
 * entry only (bin/revisit.js): it sets a process-wide flag, which `main` must not.
 * Returns whether it set it.
 *
 * @example
 * favourMemory(process.execArgv, process.env.NODE_OPTIONS) // true, unless e.g. `node --max-old-space-size=4096 bin/revisit.js`
 */
export function favourMemory(execArgv: readonly string[] = process.execArgv, nodeOptions: string | undefined = process.env['NODE_OPTIONS'], set: (flags: string) => void = setFlagsFromString): boolean {
	const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
	if (given.some((flag) => OWN_CHOICE.test(flag))) return false;
	set('--optimize-for-size');
	return true;
}
