import { readFile } from 'node:fs/promises';
import { ConfigError, EXIT } from '../../base/errors/index.js';
import { compilePipeline } from '../../pipelines/config.js';
import type { CliIo } from '../io.js';
import { loadForCommand, pipelineFileOptions } from '../shared/pipeline-file.js';
import { typedCommand } from '../flags/groups.js';
import type { CommandResult } from '../shared/result.js';

/** `revisit check PIPELINE.json`: validates a pipeline (with any --set) without running it. */
export function checkCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'check <pipeline>',
		describe: 'Validate a pipeline file, or a content-rule list, without running it',
		builder: (yargs) =>
			pipelineFileOptions(yargs)
				.example('revisit check nightly.json', 'Every problem, with its line: exit 0 valid, 2 invalid')
				.example('revisit check rules.json', 'A content-rule list (a JSON array, for --rules)'),
		handler: async (args) => {
			// A file whose JSON is an array is a content-rule list (--rules FILE), not a pipeline.
			const text = await readFile(args.pipeline, 'utf8').catch(() => undefined);
			if (text !== undefined && /^\s*\[/.test(text.replace(/^\uFEFF/, ''))) return void (result.status = await checkRules(io, args.pipeline, text));
			const loaded = await loadForCommand(io, args);
			if ('status' in loaded) return void (result.status = loaded.status);
			// Compiling runs each option through its CLI flag's checks too.
			const compiled = compilePipeline(loaded.config);
			// What a run checks at its start (apprise's dry run of the notify URLs it sends), so that check finds it first.
			for (const check of compiled.checks) await check();
			const stages = loaded.config.stages?.map((stage) => stage.use) ?? [];
			const sinks = loaded.config.sinks.map((sink) => sink.type);
			io.stdout.write(
				`${args.pipeline}: valid ${compiled.watch ? 'watch-mode ' : ''}pipeline (stages: ${stages.length > 0 ? stages.join(', ') : 'defaults'}; sinks: ` +
					`${sinks.join(', ')})\n`,
			);
			result.status = 0;
		},
	});
}

async function checkRules(io: CliIo, file: string, text: string): Promise<number> {
	const { validateRules } = await import('../../config/rule-list.js');
	try {
		const rules = validateRules(text, file);
		io.stdout.write(`${file}: valid rule list (${rules.length} rule${rules.length === 1 ? '' : 's'})\n`);
		return EXIT.ok;
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		for (const problem of error.problems) io.stderr.write(`${problem}\n`);
		io.stderr.write(`revisit: ${file} is not a valid rule list (${error.problems.length} problem${error.problems.length === 1 ? '' : 's'})\n`);
		return EXIT.usage;
	}
}
