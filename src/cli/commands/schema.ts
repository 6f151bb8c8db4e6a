import type { CommandModule } from 'yargs';
import { pipelineSchema } from '../../config/schema.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { safeJson } from '../../base/util/visible.js';

/**
 * The pipeline schema as JSON, exactly as shipped in config/pipeline.schema.json.
 *
 * @example
 * schemaText().startsWith('{') // true
 */
export function schemaText(): string {
	return `${safeJson(pipelineSchema, '\t')}\n`;
}

/** `revisit schema`: prints the pipeline JSON Schema, for editors and validators. */
export function schemaCommand(io: CliIo, result: CommandResult): CommandModule {
	return {
		command: 'schema',
		describe: 'Print the JSON Schema of pipeline files',
		builder: (yargs) => yargs.example('revisit schema > pipeline.schema.json', 'For an editor: "$schema": "./pipeline.schema.json"'),
		handler: () => {
			io.stdout.write(schemaText());
			result.status = 0;
		},
	};
}
