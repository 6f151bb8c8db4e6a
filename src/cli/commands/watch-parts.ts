import { Observable } from 'rxjs';
import type { InputBatch } from '../../watch/admit.js';
import type { WatchJob } from '../../watch/job.js';
import { argsInput } from '../../sources/args.js';
import type { CliIo } from '../io.js';

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

/** The metrics and listening server for `--listen` (a first version: none yet). */
export function watchObserve(_listen: string): WatchJob['observe'] {
	return undefined;
}
