import type { ValidatorStore } from '../store/types.js';
import { formatBytes } from '../util/bytes.js';
import { writeFileAtomic } from '../util/write-file-atomic.js';
import { REPORT_SCRIPT } from './client.js';
import { loadReport, type ReportData } from './data.js';
import { escapeXml } from '../history/svg.js';

const STYLE = `
:root{color-scheme:light;--fg:#1f2328;--muted:#59636e;--line:#d0d7de;--bg:#f6f8fa;--accent:#0969da}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);margin:0;background:#fff}
header{padding:16px 24px;border-bottom:1px solid var(--line);background:var(--bg)}
header h1{font-size:20px;margin:0 0 4px}
header p{margin:0;color:var(--muted)}
main{padding:8px 24px 48px;max-width:1200px}
h2{font-size:16px;margin:0}
section,details.section{margin:18px 0}
details.section>summary{cursor:pointer;padding:6px 0;font-weight:600;font-size:16px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}
.card{border:1px solid var(--line);border-radius:6px;padding:8px 14px;min-width:130px;background:#fff}
.card b{display:block;font-size:22px}
.card span{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card.changed b{color:#bc4c00}.card.errors b{color:#cf222e}
.controls{display:flex;flex-wrap:wrap;gap:14px;align-items:center;margin:8px 0 10px;padding:8px 10px;background:var(--bg);border:1px solid var(--line);border-radius:6px}
.controls input[type=search]{flex:1;min-width:220px;padding:4px 8px;border:1px solid var(--line);border-radius:4px;font:inherit}
ol.list{list-style:none;margin:0;padding:0}
details.change{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:#fff}
details.change>summary{cursor:pointer;padding:7px 10px;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
details.change[open]>summary{border-bottom:1px solid var(--line);background:var(--bg)}
.url{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;word-break:break-all}
.reason{font-size:12px;border-radius:10px;padding:1px 8px;background:#fff1e5;color:#953800;border:1px solid #ffd8b5;white-space:nowrap}
.reason.audit{background:#ffebe9;color:#a40e26;border-color:#ffcecb}
.reason.gone{background:#eee;color:#444;border-color:#ccc}
.meta{color:var(--muted);font-size:12px}
.body{padding:8px 12px 12px}
table{border-collapse:collapse}
table.why td,table.why th{text-align:left;padding:2px 10px 2px 0;vertical-align:top;font-size:13px}
table.why th{color:var(--muted);font-weight:normal;white-space:nowrap}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;background:var(--bg);padding:0 3px;border-radius:3px;word-break:break-all}
.moved{color:#bc4c00;font-weight:600}
.note{color:var(--muted);font-style:italic;margin:6px 0}
table.grid{width:100%;font-size:13px}
table.grid th,table.grid td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
table.grid th{background:var(--bg);position:sticky;top:0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
button.more{margin:8px 0;padding:4px 12px;border:1px solid var(--line);border-radius:4px;background:var(--bg);cursor:pointer;font:inherit}
.pages{margin:6px 0 10px;color:var(--muted)}.pages a{color:var(--accent);margin-left:10px}
.chart img{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px}
`;

const card = (label: string, value: string, kind = ''): string => `<div class="card ${kind}"><b>${escapeXml(value)}</b><span>${escapeXml(label)}</span></div>`;

/** The data as a script element's text: `<` escaped, so that no string in it can close the element. */
const embedded = (data: ReportData): string => JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** A page of a paged report (`revisit watch --listen`): what it holds, in a sentence, and the links to the others (relative hrefs). */
export interface PageLinks {
	note: string;
	hosts?: string | undefined;
	older?: string | undefined;
	newest?: string | undefined;
}

const nav = (links: PageLinks): string => {
	const older = links.older === undefined ? '' : `<a rel="next" href="${escapeXml(links.older)}">older changes &rarr;</a>`;
	const newest = links.newest === undefined ? '' : `<a href="${escapeXml(links.newest)}">newest changes</a>`;
	return `<nav class="pages" aria-label="pages">${escapeXml(links.note)}${newest}${older}</nav>\n`;
};

/**
 * The report page: one self-contained HTML document (inline CSS and script, the chart
 * as a data: image, a Content-Security-Policy that allows no request), with the data as
 * JSON; the script builds the lists from it as they are scrolled to or opened. `links`
 * makes it one page of several: a line saying which, with links to the others.
 *
 * @example
 * await writeFile('report.html', renderReport(await loadReport(store, { runs: 1 }, '.revisit')))
 */
export function renderReport(data: ReportData, links?: PageLinks): string {
	const s = data.summary;
	const first = data.runs[0];
	const last = data.runs.at(-1);
	const under = last?.live ? ', the last under way (live)' : last?.unfinished ? ', the last unfinished' : '';
	const span = !first ? 'no runs recorded' : data.runs.length === 1 ? `run of ${first.start}${under}` : `${data.runs.length} runs, ${first.start} to ${last!.start}${under}`;
	const chart = `data:image/svg+xml;base64,${Buffer.from(data.svg).toString('base64')}`;
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="referrer" content="no-referrer">
<title>revisit report: ${escapeXml(span)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>revisit report</h1><p>${escapeXml(span)} &middot; store ${escapeXml(data.source)} &middot; written ${escapeXml(data.generatedAt)}</p></header>
<main>
<section id="summary" aria-label="summary">
<div class="cards">
${card('URLs checked', String(s.urls))}${card('changed', String(s.changed), 'changed')}${card('304s', String(s.notModified))}${card('errors', String(s.errors), 'errors')}${card('bytes received', formatBytes(s.bytes))}${card('bytes saved', formatBytes(s.bytesSaved))}
</div>
</section>
<section id="changes">
<h2>Changed URLs (<span id="change-count">${data.changes.length}</span>)</h2>
<div class="controls">
<input type="search" id="filter" placeholder="Filter URLs" aria-label="Filter URLs">
<span>Diff: <label><input type="radio" name="view" value="inline" id="view-inline" checked> inline</label> <label><input type="radio" name="view" value="side" id="view-side"> side by side</label></span>
<label><input type="checkbox" id="ignore-ws"> ignore whitespace</label>
</div>
${links ? nav(links) : ''}<p class="note" id="changes-note" hidden></p>
<ol class="list" id="change-list"></ol>
<button class="more" id="more-changes" hidden>Show more</button>
</section>
<details class="section" id="nodiff-section"><summary>Changes without a diff (${data.changes.filter((change) => !change.diff).length}), by reason</summary><div id="nodiff-body"></div></details>
<details class="section" id="errors-section"><summary>Errors (${s.errors}) by code</summary><div id="errors-body"></div></details>
<details class="section" id="hosts-section"><summary>Hosts (${data.hosts.length})</summary>${links?.hosts ? `<p class="note">${escapeXml(links.hosts)}</p>` : ''}<div id="hosts-body"></div></details>
<details class="section chart" id="history-section" open><summary>Run history</summary><img alt="Changed URLs and 304 ratio per run" src="${chart}"></details>
</main>
<script type="application/json" id="revisit-data">${embedded({ ...data, svg: '' })}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * Writes report pages (each replaced atomically) of the store's last runs: what a
 * pipeline file's `report` sinks ask for once the run row is stored.
 *
 * @example
 * await writeReports(store, [{ path: 'report.html', runs: 1 }], '.revisit')
 */
export async function writeReports(store: ValidatorStore, reports: ReadonlyArray<{ path: string; runs: number }>, source: string): Promise<void> {
	for (const report of reports) await writeFileAtomic(report.path, renderReport(await loadReport(store, { runs: report.runs }, source)));
}
