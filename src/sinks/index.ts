import type { SinkConfig } from '../config/types.js';
import { commandSink } from './command.js';
import { dirSink } from './dir.js';
import { fileSink } from './file.js';
import { stdoutSink } from './stdout.js';
import type { Sink } from './types.js';
import { warcSink } from './warc.js';

export { commandSink, type CommandSinkOptions } from './command.js';
export { dirSink } from './dir.js';
export { fileSink, type FileSinkOptions } from './file.js';
export { withResource } from './resource.js';
export { stdoutSink } from './stdout.js';
export { warcSink, type WarcSinkOptions } from './warc.js';
export type { Sink, SinkContext } from './types.js';

/**
 * The sink a pipeline file's `sinks` entry describes.
 *
 * @example
 * sinkFrom({ type: 'file', path: 'verdicts.ndjson', format: 'ndjson', when: 'all' })
 */
export function sinkFrom(config: SinkConfig, info?: Record<string, string>): Sink {
	switch (config.type) {
		case 'stdout':
			return stdoutSink(config);
		case 'file':
			return fileSink(config);
		case 'command':
			return commandSink(config);
		case 'dir':
			return dirSink(config);
		case 'warc':
			return warcSink({ ...config, info: info ?? {} });
	}
}
