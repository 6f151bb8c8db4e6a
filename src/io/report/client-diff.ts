/**
 * The word diff's rendering, shared by the report page's script (client.ts) and a URL's
 * page's (url-client.ts): text for an inline <script>, pasted into each inside its
 * function. It reads `state.view` ('inline' or 'side') and `state.ignoreWs` from the
 * script it is pasted into. A diff is `{ diff: hunks, cut?, kept?, labels? }` as a run's
 * detail keeps it (src/domain/content/word-diff.ts made the hunks); `labels` names the two
 * sides (default before, after). Styles are inline, so that a diff copied into an e-mail
 * keeps its colours; every text goes through esc(). Lines past the formatter's width are cut
 * into pieces joined with `+`, as in client.ts.
 */
export const DIFF_SCRIPT =
	`
var S = {
	box: 'font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;line-height:1.5;white-space:pre-wrap;word-break:break-word;border:1px solid ` +
	`#d0d7de;border-radius:4px;padding:6px 8px;margin:6px 0;background:#ffffff;color:#1f2328',
	del: 'background:#ffd7d5;color:#82071e;text-decoration:line-through',
	ins: 'background:#ccffd8;color:#055d20;text-decoration:none',
	gap: 'color:#8c959f;font-family:sans-serif;font-size:12px;margin:2px 0',
	table: 'width:100%;border-collapse:collapse;table-layout:fixed;margin:6px 0',
	cell: 'vertical-align:top;width:50%;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;line-height:1.5;white-space:pre-wrap;` +
	String.raw`word-break:break-word;border:1px solid #d0d7de;padding:6px 8px;background:#ffffff;color:#1f2328',
	head: 'text-align:left;font-family:sans-serif;font-size:12px;color:#59636e;padding:2px 8px;border:1px solid #d0d7de;background:#f6f8fa'
};
function esc(value) {
	return String(value).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; });
}
// Whitespace-only additions become unchanged text and whitespace-only removals disappear; neighbours merge again.
function visible(hunk) {
	if (!state.ignoreWs) return hunk;
	var out = [];
	for (var i = 0; i < hunk.length; i++) {
		var op = hunk[i][0], text = hunk[i][1];
		if (op !== 0 && /^\s*$/.test(text)) {
			if (op === -1) continue;
			op = 0;
		}
		var last = out[out.length - 1];
		if (last && last[0] === op) last[1] += text; else out.push([op, text]);
	}
	return out;
}
function changed(hunk) {
	for (var i = 0; i < hunk.length; i++) if (hunk[i][0] !== 0) return true;
	return false;
}
function hunksOf(change) {
	var out = [];
	for (var i = 0; i < change.diff.length; i++) {
		var hunk = visible(change.diff[i]);
		if (changed(hunk)) out.push(hunk);
	}
	return out;
}
function span(op, text) {
	if (op === 1) return '<ins style="' + S.ins + '">' + esc(text) + '</ins>';
	if (op === -1) return '<del style="' + S.del + '">' + esc(text) + '</del>';
	return esc(text);
}
function kb(bytes) { return (bytes / 1024).toFixed(1) + ' KB'; }
// A diff of cut texts says where the cut is: a change past it does not show, so "only whitespace" would be false.
function cutNote(change) {
	return change.kept !== undefined ? '<div class="cut-note" style="' + S.gap + '">Text kept up to ' + kb(change.kept) + '; ` +
	`the change may lie beyond.</div>' : '';
}
function diffHtml(change) {
	var hunks = hunksOf(change);
	if (hunks.length === 0) return change.kept !== undefined ? '<p class="note">No change in the words kept.</p>' + cutNote(change) : ` +
	`'<p class="note">Only whitespace changed.</p>';
	var gap = '<div style="' + S.gap + '">&#8943;</div>';
	var html = [];
	for (var i = 0; i < hunks.length; i++) {
		var hunk = hunks[i];
		if (state.view === 'side') {
			var left = '', right = '';
			for (var j = 0; j < hunk.length; j++) {
				if (hunk[j][0] !== 1) left += span(hunk[j][0], hunk[j][1]);
				if (hunk[j][0] !== -1) right += span(hunk[j][0], hunk[j][1]);
			}
			html.push('<table class="side" style="' + S.table + '"><tr><td style="' + S.cell + '">' + left + '</td><td style="' + S.cell + '">' + right + ` +
	`'</td></tr></table>');
		} else {
			var parts = '';
			for (var k = 0; k < hunk.length; k++) parts += span(hunk[k][0], hunk[k][1]);
			html.push('<div class="inline" style="' + S.box + '">' + parts + '</div>');
		}
	}
	var names = change.labels || ['before', 'after'];
	var head = state.view === 'side' ? '<table style="' + S.table + '"><tr><th style="' + S.head + '">' + esc(names[0]) + '</th><th style="' + S.head + ` +
	`'">' + esc(names[1]) + '</th></tr></table>' : '';
	return head + html.join(gap) + (change.cut ? '<div style="' + S.gap + '">(cut at the size cap)</div>' : '') + cutNote(change);
}

`;
