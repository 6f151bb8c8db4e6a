import { diffCommand } from './commands/diff.js';
import { logCommand } from './commands/log.js';
import { processIo, type CliIo } from './io.js';
import { runCommands } from './parser.js';

/**
 * The CLI for `revisit log` and `revisit diff` alone, bundled apart (dist/cli-pages.js):
 * a tenth of the full CLI's code to load, so that looking at a page's past starts
 * quickly. bin/revisit.js picks it when the first argument is `log` or `diff`; it runs
 * those two exactly as main() does (same parser set-up, flags, help and errors).
 *
 * @example
 * process.exitCode = await pagesMain(['diff', 'https://example.org/', 'first']);
 */
export async function pagesMain(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
	return runCommands(argv, io, [logCommand, diffCommand]);
}

export { favourMemory } from './heap.js';
