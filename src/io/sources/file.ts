import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { catchError, defer, mergeMap, throwError } from 'rxjs';
import { parseJsonText } from '../../config/json-text.js';
import { PipelineError } from '../../base/errors/index.js';
import type { InputLine } from '../../domain/task/types.js';
import { readLines } from './read-lines.js';
import { readItems } from './items.js';
import { labelled, type Source } from './source.js';

/**
 * URLs from a file: one per line, streamed (`lines`, the default), or a JSON array of
 * strings (`json`, the default for a `.json` file), each entry numbered by its line in
 * the file. A file that can't be read fails the run with SOURCE_FAILED.
 *
 * @example
 * fileSource({ path: 'urls.txt' })
 * fileSource({ path: 'urls.json', format: 'json' })
 */
export function fileSource(options: { path: string; format?: 'lines' | 'json' | undefined }): Source {
	const { path } = options;
	const format = options.format ?? (path.toLowerCase().endsWith('.json') ? 'json' : 'lines');
	const failed = (error: unknown) =>
		throwError(() =>
			error instanceof PipelineError ? error : new PipelineError('SOURCE_FAILED', `${path}: cannot read URLs: ${(error as Error).message}`, { cause: error }),
		);
	if (format === 'lines') return (context) => defer(() => readLines(createReadStream(path), context.valve)).pipe(catchError(failed), labelled(path));
	return (context) =>
		defer(() => readFile(path, 'utf8')).pipe(
			mergeMap((text) => readItems(jsonEntries(path, text), context.valve)),
			catchError(failed),
		);
}

function jsonEntries(path: string, text: string): InputLine[] {
	const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
	if ('error' in parsed) throw new PipelineError('SOURCE_FAILED', `${path}:${parsed.error.line}:${parsed.error.column}: invalid JSON: ${parsed.error.message}`);
	const { value, nodeOf, position } = parsed.json;
	if (!Array.isArray(value)) throw new PipelineError('SOURCE_FAILED', `${path}: expected a JSON array of URL strings`);
	const nodes = nodeOf(value)?.children ?? [];
	return value.map((entry: unknown, i) => {
		const line = nodes[i] ? position(nodes[i]!.offset).line : i + 1;
		return typeof entry === 'string'
			? { line, text: entry.trim(), source: path }
			: { line, text: JSON.stringify(entry) ?? '', source: path, problem: 'entry is not a string' };
	});
}
