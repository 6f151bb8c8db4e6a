import { escapeXml } from '../../outputs/history/svg.js';
import { documentHead, embedded } from './parts.js';
import { URL_SCRIPT } from './url-client.js';
import type { UrlPageData } from './url-data.js';

/**
 * A URL's page: its timeline and two of its versions as a word diff, one self-contained
 * HTML document as the report is (inline style and script, a Content-Security-Policy
 * that allows no request), with the data as JSON; the script draws it (url-client.ts).
 * Nothing of the page's text reaches the HTML but through that JSON, `<` escaped, and
 * the script's esc().
 *
 * @example
 * await writeFile('page.html', renderUrlPage(await loadUrlPage(store, url, '.revisit', { back: 'report.html', served: false })))
 */
export function renderUrlPage(data: UrlPageData): string {
	const count = data.versions.length;
	return (
		`${documentHead(`revisit: ${escapeXml(data.url)}`, false)}
</head>
<body>
<header><h1>History of a page</h1><p class="url-head"><span class="url" id="page-url">${escapeXml(data.url)}</span></p><p>${count} ` +
		`version${count === 1 ? '' : 's'} kept &middot; store ${escapeXml(data.source)} &middot; written ${escapeXml(data.generatedAt)} &middot; ` +
		`<a id="back" href="${escapeXml(data.back)}">the report</a></p></header>
<main>
<section id="timeline-section"><h2>Timeline, newest first</h2><div id="timeline-body"></div></section>
<section id="compare">
<h2>Compare</h2>
<div class="controls">
<label>A <select id="pick-a" aria-label="version A"></select></label>
<label>B <select id="pick-b" aria-label="version B"></select></label>
<button class="more" id="step-previous">&larr; previous change</button>
<button class="more" id="step-next">next change &rarr;</button>
<span>Diff: <label><input type="radio" name="view" value="inline" id="view-inline" checked> inline</label> <label><input type="radio" name="view" ` +
		`value="side" id="view-side"> side by side</label></span>
<label><input type="checkbox" id="ignore-ws"> ignore whitespace</label>
</div>
<p class="meta" id="pair-title"></p>
<div id="diff-body"></div>
</section>
</main>
<script type="application/json" id="revisit-data">${embedded(data)}</script>
<script>${URL_SCRIPT}</script>
</body>
</html>
`
	);
}
