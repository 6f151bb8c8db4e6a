import { identity, pipe, type MonoTypeOperatorFunction } from 'rxjs';
import type { FeedFlags } from '../flags/feeds.js';
import { atomSink } from '../../sinks/atom.js';
import type { SinkContext } from '../../sinks/sink.js';
import { webhookSink } from '../../sinks/webhook.js';
import type { Task } from '../../types.js';
import type { CliIo } from '../io.js';

/**
 * The `--atom` and `--webhook` sinks of a command, after its output: the same sinks a
 * pipeline file declares, so changes are committed only once they are in the feed and
 * delivered.
 *
 * @example
 * pipe(sweepStages(deps, options), emit(outputs), feeds(args, io, { out: outputs.out, clock: deps.clock }))
 */
export function feeds(flags: FeedFlags, io: CliIo, context: Pick<SinkContext, 'out' | 'clock'>): MonoTypeOperatorFunction<Task> {
	const full: SinkContext = { ...context, stdout: io.stdout, stderr: io.stderr, env: io.env };
	const secret = flags['webhook-secret'] ?? io.env['REVISIT_WEBHOOK_SECRET'];
	return pipe(
		flags.atom !== undefined ? atomSink({ path: flags.atom, max: flags['atom-max'] })(full) : identity,
		flags.webhook !== undefined ? webhookSink({ url: flags.webhook, secret, batch: flags['webhook-batch'] })(full) : identity,
	);
}
