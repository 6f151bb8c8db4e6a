import { readFile } from 'node:fs/promises';
import { ConfigError } from '../base/errors/index.js';
import { parseJsonText } from './json-text.js';
import { applyOverrides } from './overrides.js';
import type { PipelineConfig } from './pipeline-config.js';
import { validatePipeline } from './validate.js';

/**
 * Reads a pipeline file, applies `--set` overrides and validates the result. Every
 * problem is reported at once, each naming the file, line and column (or the `--set`
 * responsible): a `ConfigError` with code CONFIG_INVALID, or CONFIG_UNREADABLE when the
 * file can't be read. Nothing has run when it throws.
 *
 * @example
 * const config = await loadPipeline('nightly.json', ['concurrency=8']);
 */
export async function loadPipeline(file: string, sets: readonly string[] = []): Promise<PipelineConfig> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (error) {
		const { code, message } = error as NodeJS.ErrnoException;
		const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : message;
		throw new ConfigError([`${file}: cannot read the pipeline: ${reason}`], { code: 'CONFIG_UNREADABLE', cause: error });
	}
	return parsePipeline(text.replace(/^\uFEFF/, ''), file, sets);
}

/**
 * Parses and validates pipeline text (see `loadPipeline`); `file` names it in messages.
 *
 * @example
 * parsePipeline('{ "source": { "type": "stdin" }, "sinks": [{ "type": "stdout" }] }')
 */
export function parsePipeline(text: string, file = 'pipeline', sets: readonly string[] = []): PipelineConfig {
	const parsed = parseJsonText(text);
	if ('error' in parsed) {
		const { line, column, message } = parsed.error;
		throw new ConfigError([`${file}:${line}:${column}: invalid JSON: ${message}`]);
	}
	const { config, setBy } = applyOverrides(parsed.json.value, sets);
	return validatePipeline(config, { file, json: parsed.json, setBy });
}
