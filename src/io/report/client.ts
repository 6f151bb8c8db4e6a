import { DIFF_SCRIPT } from './client-diff.js';

/**
 * The report page's script, as text for an inline <script>: it reads the JSON data
 * element and builds the sections on demand. The changed URLs are listed 100 at a time
 * (more as the list is scrolled to its end); a change's reasons and diff are built when
 * it is opened; errors and hosts when their section is opened. Diffs use inline styles
 * only, so that a diff copied into an e-mail keeps its colours. Plain ES5-style code in
 * a string (no template literals): it runs in the browser, not in Node. The page sets
 * `data-ready` on <html> once the first rows are in (tests and bench/report.js wait for it).
 * Lines past the formatter's width are cut into pieces joined with `+`: the text is the same.
 */
export const REPORT_SCRIPT =
	`
(function () {
'use strict';
var data = JSON.parse(document.getElementById('revisit-data').textContent);
var state = { view: 'inline', ignoreWs: false, filter: '', shown: 0, list: data.changes };
var PAGE = 100;
${DIFF_SCRIPT}
var REASONS = {
	'new-body': 'the body differs from the last download (its hash moved)',
	'new': 'first seen: nothing stored before',
	'audit': 'an audit re-fetched a 304 in full and found a change the 304 hid',
	'gone': 'the server answered 404 or 410',
	'selector-gone': "the content rule's selectors no longer match anything",
	'price': "the product's price moved",
	'availability': "the product's availability moved",
	'candidate': 'its validators moved; the body was not read (candidates sweep)',
	'error': 'the request failed'
};
var TEXT = {
	'diff': '',
	'first-sight': 'No diff: the page was seen for the first time (its text is kept from now on).',
	'no-earlier-text': 'No diff: no text was kept from before this change (the page was first seen before revisit kept text from first sight, ` +
	`or while text keeping was off).',
	'same-text': 'No diff: the text compared is the same; the change is in what it leaves out (markup, attributes, scripts: ` +
	String.raw`see it with --diff-of source), or in what a content rule ignores.',
	'evicted': 'No diff: the text kept from before was evicted to keep the store under --keep-text-total (least recently changed pages first).',
	'beyond-cut': 'No diff: the words kept did not change. Text is kept up to --keep-text per page, and the change lies beyond it.',
	'total-cap': 'No diff: the store holds --keep-text-total of text already, so none was kept from before.',
	'too-different': 'No diff: the two versions are too different to diff word by word.',
	'not-read': 'No diff: the body was not read.',
	'gone': 'No diff: the page is gone.',
	'off': 'No diff: text keeping is off (--keep-text off).',
	'report-cap': 'No diff: the run\'s detail reached its size cap before this change.'
};

function el(id) { return document.getElementById(id); }
function pct(r) { return r === null || r === undefined ? '-' : (r * 100).toFixed(1) + '%'; }
function short(hash) { return hash ? String(hash).slice(0, 12) : ''; }

function row(label, before, after) {
	if (before === undefined && after === undefined) return '';
	var moved = before !== after && before !== undefined;
	var value = before === undefined ? '<code>' + esc(after) + '</code>' : after === undefined ? '<code>' + esc(before) + '</code> &rarr; (none)' : ` +
	`before === after ? '<code>' + esc(after) + '</code> (same)' : '<code>' + esc(before) + '</code> &rarr; ` +
	`<code>' + esc(after) + '</code>';
	return '<tr><th>' + esc(label) + '</th><td' + (moved ? ' class="moved"' : '') + '>' + value + '</td></tr>';
}
// A rule as written (kept with the run's detail), its id after it; an id alone for a rule a run before revisit kept them.
function ruleHtml(id) {
	var spec = (data.rules || {})[id];
	var tail = ': only what it counts is compared';
	if (!spec) return '<code>' + esc(id) + '</code>' + tail;
	var list = function (values) { return values.map(function (value) { return '<code>' + esc(value) + '</code>'; }).join(', '); };
	var parts = [];
	if (spec.match !== undefined) parts.push('match ' + list([spec.match]));
	if (spec.select) parts.push('select ' + list(spec.select));
	if (spec.pointer) parts.push('pointer ' + list(spec.pointer));
	if (spec.exclude) parts.push('exclude ' + list(spec.exclude));
	if (spec.text) parts.push('visible text');
	else if (spec.select || spec.exclude) parts.push('markup');
	if (spec.ignore) parts.push('ignore ' + list(spec.ignore));
	if (spec.product || spec.price || spec.availability) parts.push('the offer (price, availability)');
	if (spec.price) parts.push('price from ' + list(spec.price));
	if (spec.availability) parts.push('availability from ' + list(spec.availability));
	if (spec.learn) parts.push('learns noise');
	return '<span class="rule">' + parts.join(' &middot; ') + '</span> (rule ' + esc(id) + ')' + tail;
}
function whyHtml(change) {
	var b = change.before || {}, a = change.after || {};
	var rows = '<tr><th>reason</th><td><b>' + esc(change.reason) + '</b>: ' + esc(REASONS[change.reason] || '') + '</td></tr>';
	rows += row('status', b.status, a.status);
	rows += row('ETag', b.etag, a.etag);
	rows += row('Last-Modified', b.lastModified, a.lastModified);
	rows += row('body hash', b.hash, a.hash);
	if (b.content !== undefined || a.content !== undefined) rows += row('content hash', b.content, a.content);
	if (change.product) {
		var was = change.product.before || {}, now = change.product.after;
		rows += row('price', money(was), money(now));
		rows += row('availability', was.availability, now.availability);
	}
	if (change.rule) rows += '<tr><th>content rule</th><td>' + ruleHtml(change.rule) + '</td></tr>';
	if (change.noise) rows += '<tr><th>learned noise</th><td>' + change.noise + ' place' + (change.noise === 1 ? '' : 's') + ' removed, ` +
	`from the hash and the diff</td></tr>';
	rows += '<tr><th>audit</th><td>' + (change.audit ? 'yes: the 304 was checked by a full re-fetch' : 'no') + '</td></tr>';
	if (change.bytes !== undefined) rows += '<tr><th>received</th><td>' + change.bytes + ' bytes</td></tr>';
	rows += '<tr><th>run</th><td>' + esc(change.run) + '</td></tr>';
	return '<table class="why">' + rows + '</table>';
}
function bodyHtml(change) {
	// In the body, not the summary: a click that opens the entry must not leave the page.
	var href = pageHref(change.url);
	var link = href === undefined ? '' : '<p class="meta"><a class="timeline" href="' + esc(href) + '">Timeline &amp; ` +
	String.raw`versions of this URL &rarr;</a></p>';
	// A change whose text is the same says where its bytes moved, as the verdict did.
	var none = change.note ? 'No diff: ' + change.note + '.' : TEXT[change.text] !== undefined ? TEXT[change.text] : 'No diff.';
	var diff = change.diff ? '<div class="diff">' + diffHtml(change) + '</div>' : '<p class="note">' + esc(none) + '</p>' + cutNote(change);
	return link + whyHtml(change) + diff;
}
// A price as the offer holds it, with its currency: 21 EUR.
function money(offer) {
	return offer.price === undefined ? undefined : offer.price + (offer.currency ? ' ' + offer.currency : '');
}
function headline(change) {
	var b = change.before || {}, a = change.after || {};
	var offer = change.product;
	// Worded when the run stored it, as every other output words an offer's move; runs stored before that are worded here.
	if (offer && offer.before && offer.said && (change.reason === 'price' || change.reason === 'availability')) return offer.said;
	if (offer && offer.before && change.reason === 'price') return 'price ' + money(offer.before) + ' \u2192 ' + money(offer.after);
	if (offer && offer.before && change.reason === 'availability') return offer.before.availability + ' \u2192 ' + offer.after.availability;
	if (change.reason === 'audit') return 'a 304 hid this change';
	if (change.note) return change.note;
	if (b.etag !== undefined && a.etag !== undefined && b.etag !== a.etag) return 'ETag moved';
	if (b.lastModified !== undefined && a.lastModified !== undefined && b.lastModified !== a.lastModified) return 'Last-Modified moved';
	if (b.hash && a.hash && b.hash !== a.hash) return 'hash ' + short(b.hash) + ' \u2192 ' + short(a.hash);
	return REASONS[change.reason] || '';
}
// The URL's own page (its timeline and versions): a file beside the report, or the watch's url?u= page.
function pageHref(url) {
	var pages = data.urlPages;
	if (!pages) return undefined;
	return pages.query !== undefined ? pages.query + encodeURIComponent(url) : pages.files[url];
}
function changeItem(change, index) {
	var li = document.createElement('li');
	li.innerHTML = '<details class="change" data-index="' + index + '"><summary><span class="reason ' + esc(change.reason) + '">' + esc(change.reason) + ` +
	`'</span> <span class="url">' + esc(change.url) + '</span> <span class="meta">' + esc(headline(change)) + (change.diff ? ' &middot; ` +
	`diff' : '') + '</span></summary><div class="body"></div></details>';
	var details = li.firstChild;
	details.addEventListener('toggle', function () {
		if (details.open && !details.dataset.built) {
			details.dataset.built = '1';
			details.lastChild.innerHTML = bodyHtml(change);
		}
	});
	return li;
}
function showMore() {
	var list = el('change-list');
	var end = Math.min(state.list.length, state.shown + PAGE);
	var frag = document.createDocumentFragment();
	for (var i = state.shown; i < end; i++) frag.appendChild(changeItem(state.list[i], i));
	list.appendChild(frag);
	state.shown = end;
	var more = el('more-changes');
	more.hidden = state.shown >= state.list.length;
	more.textContent = 'Show more (' + (state.list.length - state.shown) + ' left)';
}
function resetList() {
	var needle = state.filter.toLowerCase();
	state.list = needle === '' ? data.changes : data.changes.filter(function (c) { return c.url.toLowerCase().indexOf(needle) !== -1; });
	state.shown = 0;
	el('change-list').textContent = '';
	el('change-count').textContent = state.list.length === data.changes.length ? String(data.changes.length) : ` +
	`state.list.length + ' of ' + data.changes.length;
	showMore();
}
function rerenderDiffs() {
	var open = document.querySelectorAll('details.change[data-built]');
	for (var i = 0; i < open.length; i++) {
		var change = state.list[Number(open[i].dataset.index)];
		if (change) open[i].lastChild.innerHTML = bodyHtml(change);
	}
}

function errorsHtml() {
	var codes = Object.keys(data.errorCounts).sort(function (a, b) { return data.errorCounts[b] - data.errorCounts[a]; });
	if (codes.length === 0) return '<p class="note">No errors.</p>';
	var html = '';
	for (var i = 0; i < codes.length; i++) {
		var code = codes[i];
		var urls = data.errors.filter(function (e) { return e.error && e.error.code === code; });
		html += '<details class="change error-code" data-code="' + esc(code) + '"><summary><span class="reason">' + esc(code) + '</span> <b>' + ` +
	`data.errorCounts[code] + '</b> <span class="meta">' + esc(urls.length ? urls[0].error.message : ` +
	`'') + '</span></summary><div class="body"><ul>';
		for (var j = 0; j < urls.length; j++) html += '<li><span class="url">' + esc(urls[j].url) + '</span> <span class="meta">' + ` +
	`esc(urls[j].error.message) + '</span></li>';
		if (urls.length < data.errorCounts[code]) html += '<li class="meta">and ' + (data.errorCounts[code] - urls.length) + ' more not kept</li>';
		html += '</ul></div></details>';
	}
	return html;
}
// Every change that shows no diff, grouped by why: a reader sees at once which are missing and whether a setting would bring them back.
function noDiffHtml() {
	var groups = {}, order = [];
	for (var i = 0; i < data.changes.length; i++) {
		var change = data.changes[i];
		if (change.diff) continue;
		var why = change.text || 'unknown';
		if (!groups[why]) { groups[why] = []; order.push(why); }
		groups[why].push(change);
	}
	if (order.length === 0) return '<p class="note">Every change has a diff.</p>';
	order.sort(function (a, b) { return groups[b].length - groups[a].length; });
	var html = '';
	for (var j = 0; j < order.length; j++) {
		var list = groups[order[j]];
		html += '<details class="change nodiff" data-why="' + esc(order[j]) + '"><summary><span class="reason">' + esc(order[j]) + '</span> <b>' + ` +
	`list.length + '</b> <span class="meta">' + esc(TEXT[order[j]] || 'No diff.') + '</span></summary><div class="body"><ul>';
		for (var k = 0; k < list.length && k < 50; k++) html += '<li><span class="url">' + esc(list[k].url) + '</span> <span class="meta">' + ` +
	`esc(list[k].reason) + ', ' + esc(list[k].run) + '</span></li>';
		if (list.length > 50) html += '<li class="meta">and ' + (list.length - 50) + ' more</li>';
		html += '</ul></div></details>';
	}
	return html;
}
function hostsHtml(limit) {
	var head = '<tr><th>host</th><th class="num">checked</th><th class="num">changed</th><th>mode</th><th>conditional form</th><th class="num">304 ` +
	`ratio</th><th class="num">audit rate</th><th class="num">audits / lies</th><th>method</th><th>why</th></tr>';
	var body = '';
	var hosts = data.hosts.slice(0, limit);
	for (var i = 0; i < hosts.length; i++) {
		var h = hosts[i];
		body += '<tr><td class="url">' + esc(h.host) + '</td><td class="num">' + h.checked + '</td><td class="num">' + h.changed + '</td><td>' + ` +
	`esc(h.mode) + (h.overridden ? ' (set)' : '') + '</td><td>' + esc(h.form) + '</td><td class="num">' + pct(h.ratio304) + '</td><td ` +
	String.raw`class="num">' + (h.auditRate === null ? 'run\'s' : pct(h.auditRate)) + '</td><td class="num">' + h.audits + ' / ' + h.lies + '</td>` +
	`<td>' + esc(h.method) + '</td><td>' + esc(h.reason) + (h.formReason ? '; ' + esc(h.formReason) : '') + '</td></tr>';
	}
	return '<table class="grid" id="hosts-table"><thead>' + head + '</thead><tbody>' + body + '</tbody></table>' + (data.hosts.length > limit ? '<button ` +
	`class="more" id="more-hosts">Show all ' + data.hosts.length + ' hosts</button>' : '');
}
function onOpen(id, build) {
	var section = el(id);
	var done = false;
	var run = function () { if (section.open && !done) { done = true; build(); } };
	section.addEventListener('toggle', run);
	run();
}

el('view-inline').addEventListener('change', function () { state.view = 'inline'; rerenderDiffs(); });
el('view-side').addEventListener('change', function () { state.view = 'side'; rerenderDiffs(); });
el('ignore-ws').addEventListener('change', function (event) { state.ignoreWs = event.target.checked; rerenderDiffs(); });
var timer;
el('filter').addEventListener('input', function (event) {
	clearTimeout(timer);
	timer = setTimeout(function () { state.filter = event.target.value; resetList(); }, 120);
});
el('more-changes').addEventListener('click', showMore);
onOpen('errors-section', function () { el('errors-body').innerHTML = errorsHtml(); });
onOpen('nodiff-section', function () { el('nodiff-body').innerHTML = noDiffHtml(); });
onOpen('hosts-section', function () {
	var body = el('hosts-body');
	body.innerHTML = hostsHtml(500);
	body.addEventListener('click', function (event) { if (event.target.id === 'more-hosts') body.innerHTML = hostsHtml(data.hosts.length); });
});
var notes = [];
if (data.dropped.changes > 0) notes.push(data.dropped.changes + ' more changed URLs were not kept (a run keeps at most 5000).');
if (data.dropped.runsWithoutDetail > 0) notes.push(data.dropped.runsWithoutDetail + ' run(s) with changes have no detail kept (older than the last 50 ` +
	`runs, or from before revisit kept any).');
if (notes.length) { el('changes-note').hidden = false; el('changes-note').textContent = notes.join(' '); }
resetList();
// The first changes with a diff are opened, so that the page shows one at a glance.
var first = document.querySelectorAll('details.change');
for (var n = 0, opened = 0; n < first.length && opened < 3; n++) {
	if (state.list[n] && state.list[n].diff) { first[n].open = true; opened++; }
}
if ('IntersectionObserver' in window) {
	new IntersectionObserver(function (entries) {
		if (entries[0].isIntersecting && state.shown < state.list.length) showMore();
	}, { rootMargin: '400px' }).observe(el('more-changes'));
}
// When the page became usable, in ms since navigation began (bench/report.js reads it).
document.documentElement.dataset.ready = String(Math.round(performance.now()));
})();
`;
