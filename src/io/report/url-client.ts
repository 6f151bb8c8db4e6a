import { DIFF_SCRIPT } from './client-diff.js';

/**
 * A URL's page's script, as text for an inline <script>: it reads the JSON data element
 * (url-data.ts) and draws the timeline, the two versions picked (A older, B newer) as a
 * word diff, inline or side by side, and steps to the previous and next change. The pair
 * lives in the address's fragment (`#a=3&b=5`), so that the back button and a bookmark
 * keep it. A pair the page does not hold is asked of the watch that served the page
 * (`?u=URL&a=3&b=5`); a page written to a file names the command that shows it. Plain
 * ES5-style code in a string, as client.ts; the page sets `data-ready` on <html> when drawn.
 * Lines past the formatter's width are cut into pieces joined with `+`, as in client.ts.
 */
export const URL_SCRIPT =
	`
(function () {
'use strict';
var data = JSON.parse(document.getElementById('revisit-data').textContent);
var state = { view: 'inline', ignoreWs: false, a: data.a, b: data.b };
${DIFF_SCRIPT}
var NONE = {
	'evicted': 'No diff: a text of these two is no longer kept (--keep-versions, --keep-text-total).',
	'too-different': 'No diff: the two versions are too different to diff word by word.'
};
function el(id) { return document.getElementById(id); }
// Newest first: a version's place in the list, and the one before it in time (older) and after it.
function indexOf(n) {
	for (var i = 0; i < data.versions.length; i++) if (data.versions[i].n === n) return i;
	return -1;
}
function pad(n) { return n < 10 ? '0' + n : String(n); }
function when(ms) {
	var d = new Date(ms);
	return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' + pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ` +
	`':' + pad(d.getUTCSeconds()) + 'Z';
}
function offer(product) {
	if (!product) return '';
	var parts = [];
	if (product.price !== undefined) parts.push(product.price + (product.currency ? ' ' + product.currency : ''));
	if (product.availability) parts.push(product.availability);
	return parts.join(', ');
}
function timelineHtml() {
	var rows = '', offers = false;
	for (var o = 0; o < data.versions.length; o++) if (data.versions[o].product) offers = true;
	for (var i = 0; i < data.versions.length; i++) {
		// A version --when held back is marked, as revisit log marks it; one that moved only bytes says so (its note as the title).
		var v = data.versions[i], older = data.versions[i + 1];
		var mark = v.n === state.a ? ' class="pick-a" title="version A"' : v.n === state.b ? ' class="pick-b" title="version B"' : '';
		var compare = older ? '<a href="#a=' + older.n + '&b=' + v.n + '">diff with ' + older.n + '</a>' : '';
		rows += '<tr data-n="' + v.n + '"' + mark + '><td class="num">' + v.n + '</td><td>' + esc(when(v.firstSeen)) + '</td><td>' + ` +
	`esc(when(v.lastConfirmed)) + '</td><td><span class="reason ' + esc(v.reason) + '">' + esc(v.reason) + '</span>' + (v.held ? ' (held ` +
	`back by --when, not reported)' : '') + '</td>'
			+ (v.note ? '<td class="num words" title="' + esc(v.note) + '">same text</td>' : '<td class="num words"><ins>+' + v.added + '</ins> <del>&minus;' ` +
	`+ v.removed + '</del></td>') + (offers ? '<td>' + esc(offer(v.product)) + '</td>' : '') + '<td class="num">' + v.bytes + (v.cut ? ' ` +
	`(cut)' : '') + '</td><td>' + compare + '</td></tr>';
	}
	return '<table class="grid" id="timeline"><thead><tr><th class="num">version</th><th>first seen</th><th>last confirmed</th><th>reason</th><th ` +
	`class="num">words</th>' + (offers ? '<th>offer</th>' : '') + '<th class="num">bytes</th><th></th></tr></thead><tbody>' + rows + ` +
	String.raw`'</tbody></table>';
}
function options(select, picked) {
	var html = '';
	for (var i = 0; i < data.versions.length; i++) {
		var v = data.versions[i];
		html += '<option value="' + v.n + '"' + (v.n === picked ? ' selected' : '') + '>' + v.n + ' \u00b7 ' + esc(when(v.firstSeen)) + '</option>';
	}
	el(select).innerHTML = html;
}
function commandFor(a, b) { return 'revisit diff ' + data.url + ' ' + a + ' ' + b; }
function diffSection() {
	var a = state.a, b = state.b;
	if (a === undefined || b === undefined) return '<p class="note">' + (data.versions.length === 0 ? 'No version of this page is kept.' : ` +
	`'One version only: nothing to compare yet.') + '</p>';
	if (a === b) return '<p class="note">Versions A and B are the same one.</p>';
	var pair = data.diffs[a + '-' + b];
	if (!pair) return '<p class="note" id="not-held">This page holds each change, and the oldest version kept against the latest; ` +
	`for versions ' + a + ' and ' + b + ' run <code>' + esc(commandFor(a, b)) + '</code>.</p>';
	if (pair.none) return '<p class="note">' + esc(NONE[pair.none] || 'No diff.') + '</p>';
	return '<div class="diff">' + diffHtml({ diff: pair.diff, cut: pair.cut, kept: pair.kept, labels: ['version ' + a, 'version ' + b] }) + '</div>';
}
// The change before and after the one B is: B's older neighbour with the one before it, or B's newer one with B.
function steps() {
	var i = indexOf(state.b);
	var older = i + 2 < data.versions.length ? [data.versions[i + 2].n, data.versions[i + 1].n] : undefined;
	var newer = i > 0 ? [data.versions[i].n, data.versions[i - 1].n] : undefined;
	return { previous: i === -1 ? undefined : older, next: i === -1 ? undefined : newer };
}
function draw() {
	el('timeline-body').innerHTML = timelineHtml();
	options('pick-a', state.a);
	options('pick-b', state.b);
	var s = steps();
	el('step-previous').disabled = !s.previous;
	el('step-next').disabled = !s.next;
	var ia = indexOf(state.a), ib = indexOf(state.b);
	el('pair-title').textContent = state.a === undefined ? '' : 'Version ' + state.a + (ia === -1 ? '' : ' (' + when(data.versions[ia].firstSeen) + ')') ` +
	String.raw`+ ' \u2192 version ' + state.b + (ib === -1 ? '' : ' (' + when(data.versions[ib].firstSeen) + ')');
	el('diff-body').innerHTML = diffSection();
}
function go(a, b) {
	a = Number(a); b = Number(b);
	if (a > b) { var t = a; a = b; b = t; }
	if (data.served && a !== b && !data.diffs[a + '-' + b]) {
		location.href = '?u=' + encodeURIComponent(data.url) + '&a=' + a + '&b=' + b;
		return;
	}
	location.hash = 'a=' + a + '&b=' + b;
}
function fromHash() {
	var m = /^#a=(\d+)&b=(\d+)$/.exec(location.hash);
	if (m && indexOf(Number(m[1])) !== -1 && indexOf(Number(m[2])) !== -1) { state.a = Number(m[1]); state.b = Number(m[2]); }
	draw();
}
el('pick-a').addEventListener('change', function () { go(el('pick-a').value, state.b); });
el('pick-b').addEventListener('change', function () { go(state.a, el('pick-b').value); });
el('step-previous').addEventListener('click', function () { var s = steps(); if (s.previous) go(s.previous[0], s.previous[1]); });
el('step-next').addEventListener('click', function () { var s = steps(); if (s.next) go(s.next[0], s.next[1]); });
el('view-inline').addEventListener('change', function () { state.view = 'inline'; draw(); });
el('view-side').addEventListener('change', function () { state.view = 'side'; draw(); });
el('ignore-ws').addEventListener('change', function (event) { state.ignoreWs = event.target.checked; draw(); });
window.addEventListener('hashchange', fromHash);
fromHash();
document.documentElement.dataset.ready = String(Math.round(performance.now()));
})();
`;
