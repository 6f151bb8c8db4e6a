import { parsePipeline } from '../../src/config/load.js';
import { ConfigError } from '../../src/base/errors/index.js';

/** The problems a pipeline text has, as printed (none: valid). */
export function problems(text: string, sets: string[] = []): readonly string[] {
	try {
		parsePipeline(text, 'pipeline.json', sets);
		return [];
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		return error.problems;
	}
}
