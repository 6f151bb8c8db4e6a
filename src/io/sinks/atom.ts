import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../base/util/write-file-atomic.js';
import path from 'node:path';
import { concatMap } from 'rxjs';
import { PipelineError } from '../../base/errors/index.js';
import { VERSION } from '../../base/util/version.js';
import { withResource } from './resource.js';
import type { Task } from '../../domain/task/types.js';
import { offerChange } from '../../domain/product/fields.js';
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
	const feed = atomFeed(options);
	return (context) =>
		withResource(
			async () => ({ entries: await feed.read() }),
			(state) =>
				concatMap(async (task) => {
					if (!isTold(task, options.new === true)) return task;
					const updated = new Date(context.clock.now()).toISOString();
					state.entries = await feed.write([atomEntry(task, updated)], state.entries, updated);
					return task;
				}),
			async () => {},
		);
}

/** An Atom file: its entries as they are read back, and the whole file written again with new entries first. */
export interface AtomFeed {
	/** The entries the file holds, newest first, at most `max` (none when there is no file yet). */
	read(): Promise<string[]>;
	/** Writes the file with `added` (newest first) before `entries`, capped at `max`; resolves to the entries written. Fails with SINK_FAILED. */
	write(added: readonly string[], entries: readonly string[], updated: string): Promise<string[]>;
}

/**
 * The feed file of `atomSink`, for a writer that keeps its entries elsewhere until
 * written (the outbox, src/io/outbox): read back, then rewritten whole (temporary file,
 * then rename), so a reader never sees half a feed.
 *
 * @example
 * const feed = atomFeed({ path: 'changes.atom' });
 * await feed.write([atomEntry(task, new Date().toISOString())], await feed.read(), new Date().toISOString());
 */
export function atomFeed(options: AtomSinkOptions): AtomFeed {
	const max = options.max ?? 200;
	const file = path.resolve(options.path);
	const feedId = `urn:sha1:${createHash('sha1').update(file).digest('hex')}`;
	return {
		read: async () => ((await readFile(file, 'utf8').catch(() => '')).match(ENTRY) ?? []).slice(0, max),
		async write(added, entries, updated) {
			const kept = [...added, ...entries].slice(0, max);
			const feed =
				`<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n<title>` +
				`${xml(options.title ?? 'revisit: what changed')}</title>\n` +
				(`<id>${feedId}</id>\n<updated>${updated}</updated>\n<author><name>revisit</name></author>\n<generator version="${VERSION}">revisit</generator>` +
					`\n${kept.join('\n')}\n</feed>\n`);
			try {
				await writeFileAtomic(file, feed, { sync: false });
			} catch (error) {
				throw new PipelineError('SINK_FAILED', `cannot write the Atom feed ${options.path}: ${(error as Error).message}`, { cause: error });
			}
			return kept;
		},
	};
}

/**
 * One change as an Atom entry, `updated` (ISO 8601) being when it was told: its own id,
 * the URL as title and link, the reason and what moved as summary, the diff as content.
 * Where the text is the same and only the bytes moved, the verdict's note ("the text is
 * the same; the bytes changed: …") ends the summary and, there being no diff, is the content.
 *
 * @example
 * atomEntry(task, '2026-01-02T03:04:05.000Z') // '<entry><id>urn:uuid:…</id><title>https://example.org/</title>…</entry>'
 */
export function atomEntry(task: Task, updated: string): string {
	const verdict = task.verdict!;
	const offer = verdict.product && offerChange(verdict.product, verdict.previous);
	const details = [verdict.reason, offer, verdict.status && `status ${verdict.status}`, verdict.summary].filter(Boolean).join(', ');
	const summary = verdict.note === undefined ? details : `${details}; ${verdict.note}`;
	return (
		`<entry><id>urn:uuid:${randomUUID()}</id><title>${xml(verdict.url)}</title><link href="${xml(verdict.url)}"/><updated>${updated}</updated>` +
		`<summary>${xml(summary)}</summary>${contentOf(task)}</entry>`
	);
}

const xml = (text: string): string =>
	text
		.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char]!)
		.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** An entry's content: the unified diff (`--diff`), else the word diff as HTML, else the note where only the bytes moved, else none. */
function contentOf(task: Task): string {
	if (task.diff) return `<content type="text">${xml(task.diff)}</content>`;
	const hunks = task.wordDiff?.hunks;
	const note = task.verdict?.note;
	if (!hunks?.length) return note === undefined ? '' : `<content type="text">${xml(note)}</content>`;
	const html = hunks
		.map(
			(hunk) =>
				`<p>` +
				hunk.map(([op, text]) => (op === 0 ? escapeHtml(text) : op < 0 ? `<del>${escapeHtml(text)}</del>` : `<ins>${escapeHtml(text)}</ins>`)).join('') +
				`</p>`,
		)
		.join('');
	return `<content type="html">${xml(html)}</content>`;
}

const escapeHtml = (text: string): string => text.replace(/[<>&]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[char]!);
