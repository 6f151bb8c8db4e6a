import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { PipelineError } from '../../base/errors/index.js';
import { emit, type When } from '../../stages/emit.js';
import { withResource } from './resource.js';
import { quiet, type Sink } from './sink.js';

export interface FileSinkOptions {
	path: string;
	format?: 'lines' | 'ndjson' | undefined;
	/** `append` (default) to what is there, or `truncate` it when the run starts. */
	mode?: 'append' | 'truncate' | undefined;
	when?: When | undefined;
}

/**
 * A file of URLs or verdict objects (its folder is created). A line counts as written,
 * and its URL's state may be committed, once the OS has it; the file is closed before
 * the run's last commit.
 *
 * @example
 * fileSink({ path: 'verdicts.ndjson', format: 'ndjson', when: 'all' })
 */
export function fileSink(options: FileSinkOptions): Sink {
	const file = options.path;
	return () =>
		withResource(
			async () => {
				try {
					await mkdir(path.dirname(path.resolve(file)), { recursive: true });
					return await open(file, options.mode === 'truncate' ? 'w' : 'a');
				} catch (error) {
					throw new PipelineError('SINK_FAILED', `${file}: cannot open for writing: ${(error as Error).message}`, { cause: error });
				}
			},
			(handle) =>
				emit(
					{ format: options.format ?? 'lines', when: options.when ?? 'changed' },
					{
						out: async (text) => {
							await handle.write(text);
						},
						diagnose: quiet,
					},
				),
			(handle) => handle.close(),
		);
}
