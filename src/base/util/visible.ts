/**
 * Text a page wrote, made safe to show on a terminal. A page's title, text, JSON-LD or
 * headers may hold escape sequences (`ESC[2J` clears the screen, OSC 52 writes the
 * clipboard, OSC 8 makes a link that shows another address, OSC 0 sets the window title),
 * C1 controls that some terminals take as the same (U+009B is CSI, U+009D OSC), `\r` and
 * `\b` that overwrite what was printed, and format characters that reorder or hide text
 * (bidi overrides, zero-width spaces). None of them is written as it is: each is shown as
 * `less` and `cat -v` show it, a C0 control or DEL in caret notation (ESC is `^[`, CR
 * `^M`, BS `^H`, BEL `^G`, DEL `^?`) and any other as its code point (`<U+009B>`,
 * `<U+202E>`). Tab and newline are kept where the layout wants them (`visible`), shown too
 * in a one-line field (`visibleLine`). Zero-width joiner and non-joiner (emoji, Indic and
 * Persian script), the soft hyphen and tag characters (flag emoji) are left: text needs
 * them and no terminal acts on them.
 */

// One definition of what is hidden, for the terminal (visible, visibleLine) and JSON (safeJson).
// C0 but tab and newline, DEL and C1; ALM, MVS, ZWSP, LRM, RLM, the line and paragraph
// separators, the bidi embeddings, overrides and isolates, word joiner and invisible
// operators, the deprecated format controls, BOM, interlinear annotation.
const HIDDEN =
	'\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u180e\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';
const HIDDEN_ONE = new RegExp(`[${HIDDEN}]`);
const HIDDEN_ALL = new RegExp(`[${HIDDEN}]`, 'g');
const LINE_ONE = new RegExp(`[\\t\\n${HIDDEN}]`);
const LINE_ALL = new RegExp(`[\\t\\n${HIDDEN}]`, 'g');

const hex = (char: string): string => char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');

/** `^[` for ESC, `^?` for DEL, `<U+009B>` for the rest. */
function shown(char: string): string {
	const code = char.charCodeAt(0);
	if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
	if (code === 0x7f) return '^?';
	return `<U+${hex(char)}>`;
}

/**
 * A text as a terminal may show it: tab and newline kept, every other control and hidden
 * format character made visible. Text with none of them is returned as it is, after one
 * regular expression test.
 *
 * @example
 * visible('15 EUR\x1b[2J') // '15 EUR^[[2J'
 * visible('a\u009b31mb\r\n') // 'a<U+009B>31mb^M\n'
 */
export function visible(text: string): string {
	return HIDDEN_ONE.test(text) ? text.replace(HIDDEN_ALL, shown) : text;
}

/**
 * A one-line field (a title, an ETag, a currency, a URL, a table cell) as a terminal may
 * show it: as `visible`, and tab and newline made visible too, so that it stays one line.
 *
 * @example
 * visibleLine('"v1"\n\tX') // '"v1"^J^IX'
 */
export function visibleLine(text: string): string {
	return LINE_ONE.test(text) ? text.replace(LINE_ALL, shown) : text;
}

/**
 * `JSON.stringify`, with the characters `visible` shows escaped as `\uXXXX` in strings:
 * JSON.stringify escapes C0 controls but writes DEL, C1 (U+009B is CSI to a terminal that
 * reads C1), U+2028 and U+2029 (line breaks to JavaScript before ES2019) and the bidi and
 * zero-width characters raw. What a reader parses is the same value. Every JSON revisit
 * writes to stdout, a file or a socket goes through here.
 *
 * @example
 * safeJson({ currency: 'EUR\u009b2J' }) // '{"currency":"EUR\\u009b2J"}'
 */
export function safeJson(value: unknown, space?: string | number): string {
	const text = JSON.stringify(value, undefined, space);
	// Outside strings JSON.stringify writes only ASCII, tab, newline and space: a hidden character is always inside a string.
	return text !== undefined && HIDDEN_ONE.test(text) ? text.replace(HIDDEN_ALL, (char) => `\\u${hex(char).toLowerCase()}`) : text;
}
