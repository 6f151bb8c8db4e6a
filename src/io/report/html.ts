import { formatBytes } from '../../base/util/bytes.js';
import { REPORT_SCRIPT } from './client.js';
import type { ReportData } from './data.js';
import { documentHead, embedded } from './parts.js';
import { escapeXml } from '../../outputs/history/svg.js';

const card = (label: string, value: string, kind = ''): string => `<div class="card ${kind}"><b>${escapeXml(value)}</b><span>${escapeXml(label)}</span></div>`;

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
	const span = !first
		? 'no runs recorded'
		: data.runs.length === 1
			? `run of ${first.start}${under}`
			: `${data.runs.length} runs, ${first.start} to ${last!.start}${under}`;
	const chart = `data:image/svg+xml;base64,${Buffer.from(data.svg).toString('base64')}`;
	return (
		`${documentHead(`revisit report: ${escapeXml(span)}`, true)}
</head>
<body>
<header><h1>revisit report</h1><p>${escapeXml(span)} &middot; store ${escapeXml(data.source)} &middot; written ${escapeXml(data.generatedAt)}</p>` +
		`</header>
<main>
<section id="summary" aria-label="summary">
<div class="cards">
${card('URLs checked', String(s.urls))}${card('changed', String(s.changed), 'changed')}${card('304s', String(s.notModified))}` +
		`${card('errors', String(s.errors), 'errors')}${card('bytes received', formatBytes(s.bytes))}${card('bytes saved', formatBytes(s.bytesSaved))}
</div>
</section>
<section id="changes">
<h2>Changed URLs (<span id="change-count">${data.changes.length}</span>)</h2>
<div class="controls">
<input type="search" id="filter" placeholder="Filter URLs" aria-label="Filter URLs">
<span>Diff: <label><input type="radio" name="view" value="inline" id="view-inline" checked> inline</label> <label><input type="radio" name="view" ` +
		`value="side" id="view-side"> side by side</label></span>
<label><input type="checkbox" id="ignore-ws"> ignore whitespace</label>
</div>
${links ? nav(links) : ''}<p class="note" id="changes-note" hidden></p>
<ol class="list" id="change-list"></ol>
<button class="more" id="more-changes" hidden>Show more</button>
</section>
<details class="section" id="nodiff-section"><summary>Changes without a diff (${data.changes.filter((change) => !change.diff).length}), ` +
		`by reason</summary><div id="nodiff-body"></div></details>
<details class="section" id="errors-section"><summary>Errors (${s.errors}) by code</summary><div id="errors-body"></div></details>
<details class="section" id="hosts-section"><summary>Hosts (${data.hosts.length})</summary>` +
		`${links?.hosts ? `<p class="note">${escapeXml(links.hosts)}</p>` : ''}<div id="hosts-body"></div></details>
<details class="section chart" id="history-section" open><summary>Run history</summary><img alt="Changed URLs and 304 ratio per run" src="${chart}">` +
		`</details>
</main>
<script type="application/json" id="revisit-data">${embedded({ ...data, svg: '' })}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`
	);
}
