import { compilePipeline, pipelineShape } from '../../pipelines/config.js';
import type { CliIo } from '../io.js';
import { runPipeline } from '../run-pipeline.js';
import { loadForCommand, pipelineFileOptions } from '../shared/pipeline-file.js';
import type { CommandResult } from '../shared/result.js';
import { quietFlag, typedCommand } from '../flags/groups.js';
import { defaultStoreDir } from '../../store/default-dir.js';
import { envDefaults } from '../../pipelines/sweep-defaults.js';
import { pipelineWatch } from '../../watch/pipeline.js';
import { runWatchOnTerminal } from '../shared/watch-parts.js';

/**
 * `revisit run PIPELINE.json`: validates the file (exit 2 and nothing runs when it is
 * invalid), then runs it through the same loop as `sweep` and `crawl`, with the same
 * exit statuses; a watch-mode file (`"mode": "watch"`) runs as `revisit watch` does.
 */
export function runCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'run <pipeline>',
		describe: 'Run a pipeline file: sources, stages and sinks in JSON',
		builder: (yargs) =>
			pipelineFileOptions(yargs)
				.option('quiet', quietFlag)
				.example('revisit run nightly.json', 'Run a pipeline')
				.example('revisit run nightly.json --set concurrency=8 --set stages.due.ttl=6h', 'Override options for this run')
				.example('revisit run watch.json --set watch.rate=20/s', 'Run a watch-mode pipeline ("mode": "watch") as revisit watch')
				.epilog(
					'Exit status: 0 every URL judged; 1 some errors, bad input or a failed sink command;\n2 invalid pipeline, ' +
						'usage or store error (nothing is run); 3 the churn guard held back a host.\nIn watch mode, as revisit watch: ' +
						'0 stopped by a signal or at watch.until; 2 usage or store error.',
				),
		handler: async (args) => {
			const loaded = await loadForCommand(io, args);
			if ('status' in loaded) return void (result.status = loaded.status);
			const env = { ...process.env, ...io.env };
			const compiled = compilePipeline(loaded.config, { env, proxyEnv: io.env });
			const store = compiled.store ?? defaultStoreDir(io.env);
			if (compiled.watch) {
				const job = pipelineWatch(loaded.config, compiled, { store, now: envDefaults(io.env).now });
				return void (result.status = await runWatchOnTerminal(io, job, { quiet: args.quiet, env }));
			}
			result.status = await runPipeline(io, { ...pipelineShape(compiled), store, churnHint: 'stage' }, { quiet: args.quiet, env });
		},
	});
}
