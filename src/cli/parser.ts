import yargs, { type CommandModule } from 'yargs';
import { EXIT, exitStatusFor, RevisitError, UsageError } from '../base/errors/index.js';
import { VERSION } from '../base/util/version.js';
import type { CommandResult } from './shared/result.js';
import { STDIN_ARG } from '../io/sources/args.js';
import { strayValue } from './one-value.js';
import { unknownFlagError, type KnownFlags, type PipelineFlagHint } from './unknown-flags.js';
import { visibleIo, type CliIo } from './io.js';

/** A command as main.ts lists it: made per run, with the run's io and the result its handler sets. */
// any: each command has its own argument type, and yargs' CommandModule is invariant in it.
// biome-ignore lint/suspicious/noExplicitAny: as said above
export type CommandMaker = (io: CliIo, result: CommandResult) => CommandModule<object, any>;

/**
 * Runs one command line through yargs with the given commands: the top-level usage, help,
 * version and error handling every entry shares (main.ts has every command; pages-main.ts
 * only log and diff, for a quicker start), with stdout and stderr that make control
 * characters visible (`visibleIo`). `pipelineHint` says where a pipeline's stage
 * option given as a flag goes (main.ts's run and check). Resolves to the exit status.
 *
 * @example
 * process.exitCode = await runCommands(['log', url], processIo(), [logCommand, diffCommand]);
 */
export async function runCommands(argv: readonly string[], given: CliIo, commands: readonly CommandMaker[], pipelineHint?: PipelineFlagHint): Promise<number> {
	// Every command's output, and every error below, shows what a page wrote made visible.
	const io = visibleIo(given);
	const result: CommandResult = { status: EXIT.ok };
	// yargs-parser drops a bare `-`; carry it through as a token no URL can be.
	const args = argv.map((arg) => (arg === '-' ? STDIN_ARG : arg));
	const base = yargs(args)
		.scriptName('revisit')
		.usage(
			'$0 <command> [options]\n\nTells which URLs changed since the last look, downloading as little as possible.\nStored validators (ETag, ' +
				'Last-Modified) go back as conditional requests;\na hash of the body decides where servers get them wrong.',
		);
	const parser = commands
		.reduce((built, command) => built.command(command(io, result)), base)
		.demandCommand(1, 'Name a command: revisit sweep < urls.txt')
		.strict()
		.recommendCommands()
		.version(VERSION)
		.help()
		.alias('h', 'help')
		.wrap(null)
		.epilog(
			'Exit status: 0 success; 1 some URLs failed or were bad input; 2 usage or store error.\nEach command has its own --help, e.g. revisit sweep --help.',
		)
		.exitProcess(false)
		// Before yargs' own checks: `rules test --exclude .a .b URL` would otherwise be an extra argument.
		.middleware((parsed) => {
			if (!('urls' in parsed || 'url' in parsed)) return;
			const stray = strayValue(argv, repeatableFlags(parser));
			if (stray) throw stray;
		}, true)
		.fail((message, error) => {
			// yargs routes both its own complaints and our flag coercions (wrapped in YError) here.
			if (error instanceof RevisitError) throw error;
			if (!error) {
				const unknown = unknownFlagError(message, argv, knownFlags(parser, argv), pipelineHint);
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
	const options = (
		parser as { getOptions(): { key: Record<string, unknown>; alias: Record<string, string[]>; hiddenOptions: string[]; boolean: string[] } }
	).getOptions();
	const names = new Set([...Object.keys(options.key), ...Object.values(options.alias).flat()]);
	return { command: argv.find((arg) => !arg.startsWith('-')), names: [...names], hidden: options.hiddenOptions, booleans: options.boolean };
}

/** The parsed command's flags that take one value each time and repeat (`repeatable` in flags/groups.ts). */
function repeatableFlags(parser: unknown): Set<string> {
	const options = (parser as { getOptions(): { array: string[]; narg: Record<string, number> } }).getOptions();
	return new Set(options.array.filter((key) => options.narg[key] === 1));
}
