import { Observable } from 'rxjs';
import type { InputBatch } from '../../watch/admit.js';
import type { WatchJob } from '../../watch/job.js';
import { argsInput } from '../../sources/args.js';
import type { CliIo } from '../io.js';
import { parseListen } from '../../watch/listen.js';
import { observeWatch } from '../../watch/observe.js';
import { describeStore } from '../../store/open.js';

/** Batches of at most this many lines from stdin. */
const BATCH = 1000;

/** The watch's inputs from its flags: arguments and stdin (a first version: files and sitemaps follow). */
export function watchInputsFor(args: { urls: string[]; input: string[]; sitemap: string[] }, io: CliIo): WatchJob['inputs'] {
	return () =>
		new Observable<InputBatch>((subscriber) => {
			let stopped = false;
			void (async () => {
				let lines: InputBatch['lines'] = [];
				let number = 0;
				let rest = '';
				const source = args.urls.length === 0 ? 'stdin' : 'args';
				for await (const chunk of argsInput(args.urls, io.stdin)) {
					if (stopped) return;
					const parts = (rest + chunk.toString()).split('\n');
					rest = parts.pop() ?? '';
					for (const text of parts) {
						number++;
						const trimmed = text.trim();
						if (trimmed === '' || trimmed.startsWith('#')) continue;
						lines.push({ line: number, text: trimmed, source });
						if (lines.length >= BATCH) {
							subscriber.next({ source, generation: 1, lines, complete: false });
							lines = [];
						}
					}
				}
				if (rest.trim() !== '') lines.push({ line: ++number, text: rest.trim(), source });
				subscriber.next({ source, generation: 1, lines, complete: true });
				subscriber.complete();
			})().catch((error: unknown) => subscriber.error(error));
			return () => {
				stopped = true;
			};
		});
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
