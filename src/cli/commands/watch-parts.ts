import type { RetryPolicy } from '../../http/send.js';
import { watchInputs } from '../../watch/inputs.js';
import { processSignals } from '../../watch/signals.js';
import type { WatchJob } from '../../watch/job.js';
import { STDIN_ARG } from '../../sources/args.js';
import type { CliIo } from '../io.js';
import { parseListen } from '../../watch/listen.js';
import { observeWatch } from '../../watch/observe.js';
import { describeStore } from '../../store/open.js';

/**
 * The watch's inputs from its flags (watch/inputs.ts): the URL arguments, stdin (when `-`
 * is one of them, or nothing else is given), `--input` files and `--sitemap`s, read
 * again on SIGHUP.
 */
export function watchInputsFor(args: { urls: string[]; input: string[]; sitemap: string[]; 'sitemap-every': number }, io: CliIo, retry: RetryPolicy): WatchJob['inputs'] {
	const dash = args.urls.some((url) => url === '-' || url === STDIN_ARG);
	const readsStdin = dash || (args.urls.length === 0 && args.input.length === 0 && args.sitemap.length === 0);
	const spec = { urls: args.urls.filter((url) => url !== '-' && url !== STDIN_ARG), stdin: readsStdin ? io.stdin : undefined, files: args.input, sitemaps: args.sitemap, sitemapEveryMs: args['sitemap-every'] };
	return ({ deps, clock, wallMs, diagnose }) => watchInputs(spec, { signals: processSignals(), clock, wallMs, diagnose, http: { deps, retry } });
}

/** The metrics and listening server for `--listen HOST:PORT`; where it listens is said on stderr (port 0 picks one). */
export function watchObserve(where: string, store: string, io: CliIo): WatchJob['observe'] {
	const address = parseListen(where);
	return ({ store: opened, scale }) =>
		observeWatch(address, {
			store: opened,
			source: describeStore(store),
			scale,
			onListening: (bound) => io.stderr.write(`revisit: listening on http://${bound.host.includes(':') ? `[${bound.host}]` : bound.host || '0.0.0.0'}:${bound.port}/\n`),
		});
}
