import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../util/write-file-atomic.js';
import path from 'node:path';
import { concatMap } from 'rxjs';
import { PipelineError } from '../errors/index.js';
import { VERSION } from '../version.js';
import { withResource } from './resource.js';
import type { Task } from '../types.js';
import { offerChange } from '../product/fields.js';
import { isTold, type Sink } from './sink.js';

export interface AtomSinkOptions {
	path: string;
	/** Entries kept, newest first; default 200. */
	max?: number | undefined;
	title?: string | undefined;
	/** Also a URL's first sighting (reason `new`); left out by default, so that a new store's first run does not flood the feed. */
	new?: boolean | undefined;
}

const ENTRY = /<entry>[\s\S]*?<\/entry>/g;

/**
 * An Atom feed (RFC 4287) of changes, by the author "revisit" (the RFC needs one on the
 * feed or on every entry): one entry per change, each with its own id (so a
 * reader shows a second change of one URL as a second item), newest first, capped at
 * `max`, with the diff as its content when there is one: `--diff`'s unified diff, or
 * else the change's word diff, as HTML (`<del>`, `<ins>`). The file is rewritten whole
 * (temporary file, then rename) after each change and before the change is committed,
 * so a reader never sees half a feed and a change in the store is in the feed. Entries
 * from earlier runs are kept: they are read back from the file itself.
 *
 * @example
 * atomSink({ path: 'changes.atom', max: 200 })
 */
export function atomSink(options: AtomSinkOptions): Sink {
	const max = options.max ?? 200;
	const file = path.resolve(options.path);
	const feedId = `urn:sha1:${createHash('sha1').update(file).digest('hex')}`;
	return (context) =>
		withResource(
			async () => ({ entries: ((await readFile(file, 'utf8').catch(() => '')).match(ENTRY) ?? []).slice(0, max) }),
			(state) =>
				concatMap(async (task) => {
					if (!isTold(task, options.new === true)) return task;
					const verdict = task.verdict!;
					const updated = new Date(context.clock.now()).toISOString();
					const offer = verdict.product && offerChange(verdict.product, verdict.previous);
					const details = [verdict.reason, offer, verdict.status && `status ${verdict.status}`, verdict.summary].filter(Boolean).join(', ');
					state.entries.unshift(
						`<entry><id>urn:uuid:${randomUUID()}</id><title>${xml(verdict.url)}</title><link href="${xml(verdict.url)}"/><updated>${updated}</updated>` +
							`<summary>${xml(details)}</summary>${contentOf(task)}</entry>`,
					);
					state.entries.length = Math.min(state.entries.length, max);
					const feed =
						`<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n<title>${xml(options.title ?? 'revisit: what changed')}</title>\n` +
						`<id>${feedId}</id>\n<updated>${updated}</updated>\n<author><name>revisit</name></author>\n<generator version="${VERSION}">revisit</generator>\n${state.entries.join('\n')}\n</feed>\n`;
					try {
						await writeFileAtomic(file, feed, { sync: false });
					} catch (error) {
						throw new PipelineError('SINK_FAILED', `cannot write the Atom feed ${options.path}: ${(error as Error).message}`, { cause: error });
					}
					return task;
				}),
			async () => {},
		);
}

const xml = (text: string): string => text.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** An entry's content: the unified diff (`--diff`), else the word diff as HTML, else none. */
function contentOf(task: Task): string {
	if (task.diff) return `<content type="text">${xml(task.diff)}</content>`;
	const hunks = task.wordDiff?.hunks;
	if (!hunks?.length) return '';
	const html = hunks
		.map((hunk) => `<p>${hunk.map(([op, text]) => (op === 0 ? escapeHtml(text) : op < 0 ? `<del>${escapeHtml(text)}</del>` : `<ins>${escapeHtml(text)}</ins>`)).join('')}</p>`)
		.join('');
	return `<content type="html">${xml(html)}</content>`;
}

const escapeHtml = (text: string): string => text.replace(/[<>&]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[char]!);
