import type { Argv, CommandModule } from 'yargs';
import { compilePipeline, pipelineShape } from '../../pipelines/config.js';
import type { CliIo } from '../io.js';
import { runPipeline } from '../run-pipeline.js';
import { loadForCommand, pipelineFileOptions, type PipelineFileArgs } from './pipeline-file.js';
import type { CommandResult } from './result.js';
import { quietFlag } from '../flags/groups.js';
import { defaultStoreDir } from '../../store/default-dir.js';

interface RunArgs extends PipelineFileArgs {
	quiet: boolean;
}

/**
 * `revisit run PIPELINE.json`: validates the file (exit 2 and nothing runs when it is
 * invalid), then runs it through the same loop as `sweep` and `crawl`, with the same
 * exit statuses.
 */
export function runCommand(io: CliIo, result: CommandResult): CommandModule<object, RunArgs> {
	return {
		command: 'run <pipeline>',
		describe: 'Run a pipeline file: sources, stages and sinks in JSON',
		builder: (yargs) =>
			pipelineFileOptions(yargs)
				.option('quiet', quietFlag)
				.example('revisit run nightly.json', 'Run a pipeline')
				.example('revisit run nightly.json --set concurrency=8 --set stages.due.ttl=6h', 'Override options for this run')
				.epilog('Exit status: 0 every URL judged; 1 some errors, bad input or a failed sink command;\n2 invalid pipeline, usage or store error (nothing is run); 3 the churn guard held back a host.') as unknown as Argv<RunArgs>,
		handler: async (args) => {
			const loaded = await loadForCommand(io, args);
			if ('status' in loaded) return void (result.status = loaded.status);
			const env = { ...process.env, ...io.env };
			const compiled = compilePipeline(loaded.config, { env, proxyEnv: io.env });
			result.status = await runPipeline(io, { ...pipelineShape(compiled), store: compiled.store ?? defaultStoreDir(io.env), churnHint: 'stage' }, { quiet: args.quiet, env });
		},
	};
}
