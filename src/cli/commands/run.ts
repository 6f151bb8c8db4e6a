import type { Argv, CommandModule } from 'yargs';
import { compilePipeline, pipelinePlan } from '../../pipelines/config.js';
import type { CliIo } from '../io.js';
import { runPipeline } from '../run-pipeline.js';
import { loadForCommand, pipelineFileOptions, type PipelineFileArgs } from './pipeline-file.js';
import type { CommandResult } from './result.js';
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
				.option('quiet', { type: 'boolean', alias: 'q', default: false, describe: 'No progress or summary on stderr' })
				.example('revisit run nightly.json', 'Run a pipeline')
				.example('revisit run nightly.json --set concurrency=8 --set stages.due.ttl=6h', 'Override options for this run')
				.epilog('Exit status: 0 every URL judged; 1 some errors, bad input or a failed sink command;\n2 invalid pipeline, usage or store error (nothing is run); 3 the churn guard held back a host.') as unknown as Argv<RunArgs>,
		handler: async (args) => {
			const loaded = await loadForCommand(io, args);
			if ('status' in loaded) return void (result.status = loaded.status);
			const compiled = compilePipeline(loaded.config);
			const plan = pipelinePlan(compiled, { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, env: { ...process.env, ...io.env } });
			result.status = await runPipeline(io, {
				store: compiled.store ?? defaultStoreDir(io.env),
				quiet: args.quiet,
				options: compiled.options,
				input: plan.input,
				build: plan.build,
				acceptChurnHint: (origin) => `add it to the churn-guard stage's acceptChurn (--set 'acceptChurn=["${origin}"]')`,
			});
		},
	};
}
