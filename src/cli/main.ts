import yargs from 'yargs';
import { EXIT, exitStatusFor, RevisitError, UsageError } from '../errors/index.js';
import { VERSION } from '../version.js';
import type { CommandResult } from './commands/result.js';
import { crawlCommand } from './commands/crawl.js';
import { dueCommand } from './commands/due.js';
import { exportCommand, importCommand } from './commands/export.js';
import { historyCommand } from './commands/history.js';
import { reportCommand } from './commands/report.js';
import { logCommand } from './commands/log.js';
import { diffCommand } from './commands/diff.js';
import { fetchCommand } from './commands/fetch.js';
import { hostsCommand } from './commands/hosts.js';
import { pruneCommand } from './commands/prune.js';
import { checkCommand } from './commands/check.js';
import { runCommand } from './commands/run.js';
import { schemaCommand } from './commands/schema.js';
import { statsCommand } from './commands/stats.js';
import { sweepCommand } from './commands/sweep.js';
import { watchCommand } from './commands/watch.js';
import { workerCommand } from './commands/worker.js';
import { warcIndexCommand } from './commands/warc-index.js';
import { rulesCommand } from './commands/rules.js';
import { noiseCommand } from './commands/noise.js';
import { robotsCommand } from './commands/robots.js';
import { workersCommand } from './commands/workers.js';
import { STDIN_ARG } from '../sources/args.js';
import { processIo, type CliIo } from './io.js';
import { unknownFlagError, type KnownFlags } from './unknown-flags.js';

/**
 * Runs the CLI and resolves to the exit status; never calls process.exit, so it can
 * run in-process in tests.
 *
 * @example
 * process.exitCode = await main(['sweep', '--ndjson'], processIo());
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
	const result: CommandResult = { status: EXIT.ok };
	// yargs-parser drops a bare `-`; carry it through as a token no URL can be.
	const args = argv.map((arg) => (arg === '-' ? STDIN_ARG : arg));
	const parser = yargs(args)
		.scriptName('revisit')
		.usage('$0 <command> [options]\n\nTells which URLs changed since the last look, downloading as little as possible.\nStored validators (ETag, Last-Modified) go back as conditional requests;\na hash of the body decides where servers get them wrong.')
		.command(sweepCommand(io, result))
		.command(watchCommand(io, result))
		.command(fetchCommand(io, result))
		.command(crawlCommand(io, result))
		.command(statsCommand(io, result))
		.command(hostsCommand(io, result))
		.command(dueCommand(io, result))
		.command(exportCommand(io, result))
		.command(importCommand(io, result))
		.command(historyCommand(io, result))
		.command(reportCommand(io, result))
		.command(logCommand(io, result))
		.command(diffCommand(io, result))
		.command(pruneCommand(io, result))
		.command(workerCommand(io, result))
		.command(workersCommand(io, result))
		.command(rulesCommand(io, result))
		.command(noiseCommand(io, result))
		.command(robotsCommand(io, result))
		.command(warcIndexCommand(io, result))
		.command(runCommand(io, result))
		.command(checkCommand(io, result))
		.command(schemaCommand(io, result))
		.demandCommand(1, 'Name a command: revisit sweep < urls.txt')
		.strict()
		.recommendCommands()
		.version(VERSION)
		.help()
		.alias('h', 'help')
		.wrap(null)
		.epilog('Exit status: 0 success; 1 some URLs failed or were bad input; 2 usage or store error.\nEach command has its own --help, e.g. revisit sweep --help.')
		.exitProcess(false)
		.fail((message, error) => {
			// yargs routes both its own complaints and our flag coercions (wrapped in YError) here.
			if (error instanceof RevisitError) throw error;
			if (!error) {
				const unknown = unknownFlagError(message, argv, knownFlags(parser, argv));
				if (unknown) throw unknown;
			}
			throw new UsageError(error?.message ?? message, { cause: error });
		});

	try {
		let output = '';
		await parser.parseAsync(args, {}, (_error, _argv, text) => {
			output = text;
		});
		if (output) io.stdout.write(`${output}\n`);
		return result.status;
	} catch (error) {
		const status = exitStatusFor(error);
		if (error instanceof RevisitError && error.code === 'OUTPUT_CLOSED') return status;
		if (error instanceof RevisitError) {
			io.stderr.write(`revisit: ${error.message}\n`);
			if (error instanceof UsageError && error.help) io.stderr.write('Run revisit --help for usage.\n');
		} else {
			io.stderr.write(`revisit: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
		}
		return status;
	}
}

/** The parsed command's flags, as yargs holds them once a command's builder has run (`getOptions` is public in yargs 17, untyped in @types/yargs). */
function knownFlags(parser: unknown, argv: readonly string[]): KnownFlags {
	const options = (parser as { getOptions(): { key: Record<string, unknown>; alias: Record<string, string[]>; hiddenOptions: string[]; boolean: string[] } }).getOptions();
	const names = new Set([...Object.keys(options.key), ...Object.values(options.alias).flat()]);
	return { command: argv.find((arg) => !arg.startsWith('-')), names: [...names], hidden: options.hiddenOptions, booleans: options.boolean };
}

export { favourMemory } from './heap.js';
