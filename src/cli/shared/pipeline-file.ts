import type { Argv } from 'yargs';
import type { PipelineConfig } from '../../config/pipeline-config.js';
import { ConfigError, EXIT } from '../../base/errors/index.js';
import type { CliIo } from '../io.js';
import { GROUP, repeatable, type ArgvOf } from '../flags/groups.js';

/** Arguments `run` and `check` share, as `pipelineFileOptions` declares them. */
export type PipelineFileArgs = ArgvOf<ReturnType<typeof pipelineFileOptions<object>>>;

/** The PIPELINE positional and the repeatable `--set key.path=value`. */
export function pipelineFileOptions<T>(yargs: Argv<T>) {
	return yargs.positional('pipeline', { type: 'string', demandOption: true, describe: 'The pipeline file (JSON; see revisit schema)' }).option('set', {
		group: GROUP.io,
		...repeatable,
		default: [],
		describe: 'Override a value: key.path=value (concurrency=8, stages.due.ttl=6h, sinks.0.when=all, store=DIR); JSON values, else strings',
	});
}

/**
 * Loads and validates a pipeline file for a command; an invalid one prints one line per
 * problem on stderr (`file:line:column: /pointer: message`) and yields exit status 2.
 *
 * @example
 * const loaded = await loadForCommand(io, args); if ('status' in loaded) return loaded.status;
 */
export async function loadForCommand(io: CliIo, args: PipelineFileArgs): Promise<{ config: PipelineConfig } | { status: number }> {
	try {
		// Ajv (the pipeline schema) loads only for the commands that read a pipeline file.
		const { loadPipeline } = await import('../../config/load.js');
		return { config: await loadPipeline(args.pipeline, args.set) };
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		for (const problem of error.problems) io.stderr.write(`${problem}\n`);
		const count = error.problems.length;
		if (error.code === 'CONFIG_INVALID')
			io.stderr.write(`revisit: ${args.pipeline} is not a valid pipeline (${count} problem${count === 1 ? '' : 's'}); nothing was run\n`);
		return { status: EXIT.usage };
	}
}
