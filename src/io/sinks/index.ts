import { identity } from 'rxjs';
import { UsageError } from '../../base/errors/index.js';
import type { SinkConfig } from '../../config/pipeline-config.js';
import { commandSink } from './command.js';
import { dirSink } from './dir.js';
import { fileSink } from './file.js';
import { stdoutSink } from './stdout.js';
import type { Rule } from '../../domain/content/rules.js';
import type { Sink } from './sink.js';
import { warcSink } from './warc.js';
import { atomSink } from './atom.js';
import { webhookSink } from './webhook.js';
import { notifySink, type NotifySinkOptions } from './notify.js';

export { commandSink, type CommandSinkOptions } from './command.js';
export { dirSink } from './dir.js';
export { fileSink, type FileSinkOptions } from './file.js';
export { withResource } from './resource.js';
export { stdoutSink } from './stdout.js';
export { warcSink, type WarcSinkOptions } from './warc.js';
export { atomSink, type AtomSinkOptions } from './atom.js';
export { webhookSink, type WebhookSinkOptions } from './webhook.js';
export { checkNotify, notifySink, type NotifySinkOptions } from './notify.js';
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
 * The sink a pipeline file's `sinks` entry describes. A notify sink's URLs are parsed
 * here (with those in its `urlsEnv` variable, read from `env`), so that `revisit check`
 * finds a bad one.
 *
 * @example
 * sinkFrom({ type: 'file', path: 'verdicts.ndjson', format: 'ndjson', when: 'all' })
 */
export function sinkFrom(config: SinkConfig, info?: Record<string, string>, rules?: readonly Rule[], env: NodeJS.ProcessEnv = process.env): Sink {
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
			return (context) =>
				webhookSink({
					url: config.url,
					batch: config.batch,
					new: config.new,
					secret: config.secretEnv === undefined ? undefined : context.env[config.secretEnv],
				})(context);
		case 'notify':
			return notifySink(notifyOptionsOf(config, env));
		case 'report':
			// Written once the run row is stored, by the run itself (see `reportsOf`): nothing to do per task.
			return () => identity;
	}
}

/**
 * A pipeline file's notify sink as the options `notifySink` and `checkNotify` take: its
 * URLs are those written, then those in its `urlsEnv` variable (read from `env`).
 *
 * @example
 * notifyOptionsOf({ type: 'notify', urls: ['ntfy://127.0.0.1/topic'] }, process.env) // { urls: ['ntfy://127.0.0.1/topic'], … }
 */
export function notifyOptionsOf(config: Extract<SinkConfig, { type: 'notify' }>, env: NodeJS.ProcessEnv): NotifySinkOptions {
	return { urls: notifyUrls(config, env), template: config.template, apprise: config.apprise, new: config.new, env };
}

/** A notify sink's URLs: those written, then those in its `urlsEnv` variable, which must be set. */
function notifyUrls(config: Extract<SinkConfig, { type: 'notify' }>, env: NodeJS.ProcessEnv): string[] {
	const fromEnv = config.urlsEnv === undefined ? [] : (env[config.urlsEnv] ?? '').split(/\s+/).filter(Boolean);
	if (config.urlsEnv !== undefined && fromEnv.length === 0) throw new UsageError(`urlsEnv: the environment variable ${config.urlsEnv} is not set`);
	const urls = [...(config.urls ?? []), ...fromEnv];
	if (urls.length === 0) throw new UsageError('a notify sink needs urls, urlsEnv or both');
	return urls;
}
