import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { diffBodies } from '../domain/content/diff-text.js';
import { isPdf, pdfText } from '../domain/content/pdf-text.js';
import type { Rule } from '../domain/content/rules.js';
import { writeFileAtomic } from '../base/util/write-file-atomic.js';
import path from 'node:path';
import { TextDecoder } from 'node:util';
import { concatMap, defer, finalize, type MonoTypeOperatorFunction } from 'rxjs';
import { bodyFileName } from '../base/util/file-name.js';
import type { Task } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';
import { wanted, type When } from './emit.js';
import { safeJson } from '../base/util/visible.js';

export type BodySink = { type: 'dir'; dir: string } | { type: 'ndjson'; out(text: string): Promise<void> };

/**
 * Writes each fetched body out, then passes the task on, so that the commit after it
 * records a URL's new state only once its body is safely written. With a directory,
 * each body goes to a stable file under a host folder (written to a temporary name and
 * renamed, so a killed fetch never leaves half a file) and a line is appended to
 * `index.ndjson`; with `ndjson`, one object per URL carries the body itself. `when`
 * narrows which verdicts' bodies are written (default: all fetched).
 *
 * @example
 * tasks$.pipe(writeBodies({}, { sink: { type: 'dir', dir: 'pages' }, clock }), commit({}, store))
 */
export function writeBodies(
	options: { when?: When; diff?: { rules: readonly Rule[] } | undefined } = {},
	{ sink, clock }: { sink: BodySink; clock: Clock },
): MonoTypeOperatorFunction<Task> {
	const when = options.when ?? 'all';
	return (source) =>
		defer(() => {
			let index: Promise<FileHandle> | undefined;
			const indexFile = () =>
				(index ??=
					sink.type === 'dir'
						? mkdir(sink.dir, { recursive: true }).then(() => open(path.join(sink.dir, 'index.ndjson'), 'a'))
						: Promise.reject(new Error('no index')));
			return source.pipe(
				concatMap(async (task) => {
					const probe = task.probe;
					const verdict = task.verdict;
					if (!probe?.body || !verdict || verdict.reason === 'error' || !wanted(verdict, when)) return task;
					const entry = {
						url: verdict.url,
						status: probe.status,
						contentType: probe.contentType,
						hash: probe.hash,
						changed: verdict.changed,
						reason: verdict.reason,
						fetchedAt: new Date(clock.now()).toISOString(),
					};
					if (sink.type === 'ndjson') {
						const text = utf8(probe.body);
						const body = text === undefined ? { encoding: 'base64', body: probe.body.toString('base64') } : { encoding: 'utf8', body: text };
						await sink.out(`${safeJson({ ...entry, ...body })}\n`);
					} else {
						const file = bodyFileName(verdict.url);
						const full = path.join(sink.dir, file);
						await mkdir(path.dirname(full), { recursive: true });
						let diff: { diff: string; summary: string } | undefined;
						if (options.diff && verdict.changed) {
							// The previous version is the one this directory holds: diff before it is replaced.
							const before = await readFile(full).catch(() => undefined);
							if (before) {
								// A PDF is diffed by its text, read here again (the probe kept only what --keep-text keeps).
								const pdf = isPdf(probe.contentType, probe.body) ? { before: await pdfText(before), after: await pdfText(probe.body) } : {};
								const change = diffBodies(options.diff.rules, verdict.url, file, before, probe.body, probe.contentType, pdf);
								await writeFileAtomic(`${full}.diff`, change.patch, { sync: false });
								diff = { diff: `${file}.diff`, summary: change.summary };
								task.diff = change.patch;
								task.verdict = { ...verdict, summary: change.summary };
							}
						}
						// Atomic against a killed fetch (a reader never sees half a body), as before: no fsync per body.
						await writeFileAtomic(full, probe.body, { sync: false });
						const { url, ...rest } = entry;
						await (await indexFile()).appendFile(`${safeJson({ url, file, ...rest, ...diff })}\n`);
					}
					// The body has done its job: don't carry it to the commit.
					return { ...task, probe: { ...probe, body: undefined } };
				}),
				finalize(
					() =>
						void index?.then(
							(handle) => handle.close(),
							() => {},
						),
				),
			);
		});
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function utf8(body: Buffer): string | undefined {
	try {
		return decoder.decode(body);
	} catch {
		return undefined;
	}
}
