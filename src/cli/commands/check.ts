import type { Argv, CommandModule } from 'yargs';
import { compilePipeline } from '../../pipelines/config.js';
import type { CliIo } from '../io.js';
import { loadForCommand, pipelineFileOptions, type PipelineFileArgs } from './pipeline-file.js';
import type { CommandResult } from './result.js';

/** `revisit check PIPELINE.json`: validates a pipeline (with any --set) without running it. */
export function checkCommand(io: CliIo, result: CommandResult): CommandModule<object, PipelineFileArgs> {
	return {
		command: 'check <pipeline>',
		describe: 'Validate a pipeline file without running it',
		builder: (yargs) =>
			pipelineFileOptions(yargs)
				.example('revisit check nightly.json', 'Every problem, with its line: exit 0 valid, 2 invalid') as unknown as Argv<PipelineFileArgs>,
		handler: async (args) => {
			const loaded = await loadForCommand(io, args);
			if ('status' in loaded) return void (result.status = loaded.status);
			// Compiling runs each option through its CLI flag's checks too.
			compilePipeline(loaded.config);
			const stages = loaded.config.stages?.map((stage) => stage.use) ?? [];
			const sinks = loaded.config.sinks.map((sink) => sink.type);
			io.stdout.write(`${args.pipeline}: valid pipeline (stages: ${stages.length > 0 ? stages.join(', ') : 'defaults'}; sinks: ${sinks.join(', ')})\n`);
			result.status = 0;
		},
	};
}
