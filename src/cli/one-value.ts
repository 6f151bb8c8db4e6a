import { UsageError } from '../base/errors/index.js';

/**
 * `--exclude .a .b URL`, written as when these flags took every word after them: `.b` is
 * now a URL argument, and would be a bad input line far from its cause. A word right after
 * a repeatable flag's value that is neither a URL nor a flag is refused before anything
 * runs, with the flag given twice as the way to write it. Only for commands whose
 * arguments are URLs (`urls` names them); undefined when nothing is amiss.
 *
 * @example
 * strayValue(['sweep', '--exclude', '.a', '.b', 'https://x.example/'], new Set(['exclude']))
 * // UsageError('--exclude takes one value each time: ".b" after it is not a URL; for two, give the flag again: --exclude .a --exclude .b')
 */
export function strayValue(args: readonly string[], repeatable: ReadonlySet<string>): UsageError | undefined {
	for (const [i, arg] of args.entries()) {
		if (arg === '--') return undefined;
		if (!arg.startsWith('--')) continue;
		const equals = arg.indexOf('=');
		const name = arg.slice(2, equals < 0 ? undefined : equals);
		if (!repeatable.has(name)) continue;
		const value = equals < 0 ? args[i + 1] : arg.slice(equals + 1);
		const word = args[equals < 0 ? i + 2 : i + 1];
		if (value === undefined || word === undefined || word.startsWith('-') || URL.canParse(word)) continue;
		return new UsageError(
			`--${name} takes one value each time: ${JSON.stringify(word)} after it is not a URL; for two, give the flag again: ` +
				`--${name} ${shellWord(value)} --${name} ${shellWord(word)}`,
			{ help: false },
		);
	}
	return undefined;
}

/** A word as a shell would take it back: bare when it can be, else in single quotes. */
function shellWord(word: string): string {
	return /^[\w.,:/@%+=-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
