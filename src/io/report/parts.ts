// What the report page and a URL's page are both made of.

import { safeJson } from '../../base/util/visible.js';

/** The report's style sheet, and a URL's page's. */
export const STYLE =
	`
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
.controls{display:flex;flex-wrap:wrap;gap:14px;align-items:center;margin:8px 0 10px;padding:8px 10px;background:var(--bg);border:1px solid var(--line);` +
	`border-radius:6px}
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
a.timeline{font-size:12px;color:var(--accent);white-space:nowrap}
tr.pick-a td{background:#fff8c5}tr.pick-b td{background:#ddf4ff}tr.pick-a td:first-child::after{content:" A";font-weight:600}tr.pick-b ` +
	`td:first-child::after{content:" B";font-weight:600}
td.words ins{color:#055d20;text-decoration:none}td.words del{color:#82071e;text-decoration:none}
.url-head{overflow-wrap:anywhere}
`;

/** The data as a script element's text: `<` escaped, so that no string in it can close the element (U+2028 and U+2029 are, by safeJson). */
export const embedded = (data: unknown): string => safeJson(data).replace(/</g, '\\u003c');

/**
 * A page's `<!doctype>` through `<style>`: the Content-Security-Policy that lets it make no
 * request (inline style and script only; `img-src data:` where `dataImages`, for the
 * report's chart), no referrer, and its title (escaped by the caller).
 *
 * @example
 * `${documentHead('revisit: https://example.com/', false)}</head>`
 */
export function documentHead(title: string, dataImages: boolean): string {
	return (
		`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none';${dataImages ? ' img-src data:;' : ''} style-src 'unsafe-inline'; ` +
		`script-src 'unsafe-inline'">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${STYLE}</style>`
	);
}
