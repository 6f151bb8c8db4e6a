import { readLines } from './read-lines.js';
import { labelled, type Source } from './source.js';

/**
 * Standard input, one URL per line (blank lines and `#` comments skipped).
 *
 * @example
 * stdinSource()(context).subscribe(...)
 */
export function stdinSource(): Source {
	return (context) => readLines(context.stdin, context.valve).pipe(labelled('stdin'));
}
