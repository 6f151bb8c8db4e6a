import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { StoreReader } from '../../store/model/types.js';
import { writeFileAtomic } from '../../base/util/write-file-atomic.js';
import { loadReport, type ReportData, type ReportScope } from './data.js';
import { renderReport } from './html.js';
import { loadUrlPage, type UrlPageData } from './url-data.js';
import { renderUrlPage } from './url-html.js';

/**
 * Where a report file's URL pages go: a folder beside it, named after it.
 *
 * @example
 * urlPagesDir('out/report.html') // 'out/report-urls'
 */
export const urlPagesDir = (reportPath: string): string => `${reportPath.replace(/\.html?$/i, '')}-urls`;

/** A URL's page's file name: a hash of the URL, so that any URL makes a safe, short name. */
const pageName = (url: string): string => `${createHash('sha256').update(url).digest('hex').slice(0, 16)}.html`;
const PAGE_NAME = /^[0-9a-f]{16}\.html$/;

/** The data of a URL page written before, if there is one that reads as such. */
async function earlierPage(file: string): Promise<UrlPageData | undefined> {
	const html = await readFile(file, 'utf8').catch(() => undefined);
	const json = html === undefined ? undefined : /<script type="application\/json" id="revisit-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
	try {
		const data = json === undefined ? undefined : (JSON.parse(json) as UrlPageData);
		return data && Array.isArray(data.versions) && typeof data.diffs === 'object' ? data : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Writes a page for each of `urls` with a version kept (each replaced atomically) into
 * urlPagesDir(reportPath), deletes the pages there of URLs no longer given, and returns
 * each written page's href relative to the report. A page links back to the report. The
 * diffs a page held before are taken again (loadUrlPage's `earlier`): a URL that changed
 * once more costs the diffs of its new version only.
 *
 * @example
 * const links = await writeUrlPages(store, 'report.html', ['https://example.org/'], '.revisit');
 * // { 'https://example.org/': 'report-urls/9f86d081884c7d65.html' }
 */
export async function writeUrlPages(store: StoreReader, reportPath: string, urls: Iterable<string>, source: string): Promise<Record<string, string>> {
	const dir = urlPagesDir(reportPath);
	const back = encodeURIComponent(path.basename(reportPath));
	const links: Record<string, string> = {};
	const written = new Set<string>();
	for (const url of new Set(urls)) {
		const name = pageName(url);
		const earlier = await earlierPage(path.join(dir, name));
		const data = await loadUrlPage(store, url, source, { back: `../${back}`, served: false, earlier });
		if (data.versions.length === 0) continue;
		if (written.size === 0) await mkdir(dir, { recursive: true });
		await writeFileAtomic(path.join(dir, name), renderUrlPage(data));
		written.add(name);
		links[url] = `${encodeURIComponent(path.basename(dir))}/${name}`;
	}
	const old = await readdir(dir).catch(() => [] as string[]);
	for (const name of old) if (PAGE_NAME.test(name) && !written.has(name)) await unlink(path.join(dir, name));
	if (written.size === 0 && old.length > 0 && old.every((name) => PAGE_NAME.test(name))) await rm(dir, { recursive: true, force: true });
	return links;
}

/** Writes the report of `data` to `reportPath`, with the pages of its changed URLs beside it. */
async function writeLoaded(store: StoreReader, reportPath: string, data: ReportData, source: string): Promise<{ page: string; urlPages: number }> {
	const files = await writeUrlPages(
		store,
		reportPath,
		data.changes.map((change) => change.url),
		source,
	);
	const page = renderReport({ ...data, urlPages: { files } });
	await writeFileAtomic(reportPath, page);
	return { page, urlPages: Object.keys(files).length };
}

/**
 * Writes a report file of `scope`'s runs and the pages of its changed URLs beside it
 * (writeUrlPages); the report links each changed URL to its page. Undefined, and nothing
 * written, when the store has no run in the scope.
 *
 * @example
 * const written = await writeReport(store, 'report.html', { runs: 1 }, '.revisit');
 */
export async function writeReport(
	store: StoreReader,
	reportPath: string,
	scope: ReportScope,
	source: string,
): Promise<{ data: ReportData; page: string; urlPages: number } | undefined> {
	const data = await loadReport(store, scope, source);
	if (data.runs.length === 0) return undefined;
	return { data, ...(await writeLoaded(store, reportPath, data, source)) };
}

/**
 * Writes report pages (each replaced atomically, with their URL pages) of the store's
 * last runs: what a pipeline file's `report` sinks ask for once the run row is stored.
 *
 * @example
 * await writeReports(store, [{ path: 'report.html', runs: 1 }], '.revisit')
 */
export async function writeReports(store: StoreReader, reports: ReadonlyArray<{ path: string; runs: number }>, source: string): Promise<void> {
	for (const report of reports) await writeLoaded(store, report.path, await loadReport(store, { runs: report.runs }, source), source);
}
