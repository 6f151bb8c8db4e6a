import { describe, expect, it } from 'vitest';
import { safeJson, visible, visibleLine } from '../../../src/base/util/visible.js';

// Every sequence a page may use on a terminal: clear screen, clipboard write (OSC 52),
// a spoofed link (OSC 8), the window title (OSC 0), DCS, C1 CSI and OSC, CR, BS.
const ATTACK = '\x1b[2J\x1b]52;c;ZXZpbA==\x07\x1b]8;;http://evil.example/\x07link\x1b]8;;\x07\x1b]0;owned\x07\x1bPq#0;2\x1b\\\u009b31m\u009d0;t\x07\r\bX';

/** Any character a terminal acts on or that hides text: C0 but tab and newline, DEL, C1, bidi and zero-width format characters. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;

describe('visible', () => {
	it('shows C0 controls and DEL in caret notation and C1 as their code points, as less does', () => {
		expect(visible(ATTACK)).toBe('^[[2J^[]52;c;ZXZpbA==^G^[]8;;http://evil.example/^Glink^[]8;;^G^[]0;owned^G^[Pq#0;2^[\\<U+009B>31m<U+009D>0;t^G^M^HX');
		expect(visible('\0\x7f')).toBe('^@^?');
	});

	it('keeps tab and newline, and shows the format characters that reorder or hide text', () => {
		expect(visible('a\tb\nc')).toBe('a\tb\nc');
		expect(visible('\u202eevil\u202c \u200bx\u2066y\u2069\ufeff\u2028')).toBe('<U+202E>evil<U+202C> <U+200B>x<U+2066>y<U+2069><U+FEFF><U+2028>');
	});

	it('leaves text alone: letters of any script, emoji with joiners, the soft hyphen', () => {
		const text = 'Prix 15 € — Цена 15 ₽ — 価格 — 👩‍👩‍👧 — می‌خواهم — Fuß\u00adball';
		expect(visible(text)).toBe(text);
	});
});

describe('visibleLine', () => {
	it('also shows tab and newline: a one-line field stays one line', () => {
		expect(visibleLine('"v1"\n\tX\r')).toBe('"v1"^J^IX^M');
		expect(visibleLine(`Kettle ${ATTACK}`)).not.toMatch(RAW);
	});
});

describe('safeJson', () => {
	it('escapes C1, DEL, U+2028/2029 and the hidden format characters, which JSON.stringify writes raw', () => {
		const value = { name: `Kettle ${ATTACK}\u202e\u2028\u007f`, n: 1 };
		expect(JSON.stringify(value)).toMatch(RAW);
		const text = safeJson(value);
		expect(text).not.toMatch(RAW);
		expect(text).toContain('\\u009b31m\\u009d0;t');
		expect(text).toContain('\\u202e\\u2028\\u007f');
		expect(JSON.parse(text)).toEqual(value);
	});

	it('is JSON.stringify where there is nothing to escape, indentation included', () => {
		const value = { a: ['b', 1, null], c: 'ü €' };
		expect(safeJson(value)).toBe(JSON.stringify(value));
		expect(safeJson(value, '\t')).toBe(JSON.stringify(value, null, '\t'));
	});
});
