import { identity } from 'rxjs';
import type { SinkConfig } from '../config/pipeline-config.js';
import { commandSink } from './command.js';
import { dirSink } from './dir.js';
import { fileSink } from './file.js';
import { stdoutSink } from './stdout.js';
import type { Rule } from '../content/rules.js';
import type { Sink } from './sink.js';
import { warcSink } from './warc.js';
import { atomSink } from './atom.js';
import { webhookSink } from './webhook.js';

export { commandSink, type CommandSinkOptions } from './command.js';
export { dirSink } from './dir.js';
export { fileSink, type FileSinkOptions } from './file.js';
export { withResource } from './resource.js';
export { stdoutSink } from './stdout.js';
export { warcSink, type WarcSinkOptions } from './warc.js';
export { atomSink, type AtomSinkOptions } from './atom.js';
export { webhookSink, type WebhookSinkOptions } from './webhook.js';
export type { Sink, SinkContext } from './sink.js';

/**
 * The report pages a pipeline file's `report` sinks ask for, written when the run ends.
 *
 * @example
 * reportsOf([{ type: 'report', path: 'report.html', runs: 1 }]) // [{ path: 'report.html', runs: 1 }]
 */
export function reportsOf(configs: readonly SinkConfig[]): Array<{ path: string; runs: number }> {
	return configs.flatMap((config) => (config.type === 'report' ? [{ path: config.path, runs: config.runs ?? 1 }] : []));
}

/**
 * The sink a pipeline file's `sinks` entry describes.
 *
 * @example
 * sinkFrom({ type: 'file', path: 'verdicts.ndjson', format: 'ndjson', when: 'all' })
 */
export function sinkFrom(config: SinkConfig, info?: Record<string, string>, rules?: readonly Rule[]): Sink {
	switch (config.type) {
		case 'stdout':
			return stdoutSink(config);
		case 'file':
			return fileSink(config);
		case 'command':
			return commandSink(config);
		case 'dir':
			return dirSink({ ...config, rules });
		case 'warc':
			return warcSink({ ...config, info: info ?? {} });
		case 'atom':
			return atomSink(config);
		case 'webhook':
			return (context) => webhookSink({ url: config.url, batch: config.batch, new: config.new, secret: config.secretEnv === undefined ? undefined : context.env[config.secretEnv] })(context);
		case 'report':
			// Written once the run row is stored, by the run itself (see `reportsOf`): nothing to do per task.
			return () => identity;
	}
}
