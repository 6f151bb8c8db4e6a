import { visibleText } from '../../domain/content/visible-text.js';

/** An empty shell: less visible text than this, and a script to fill it in. */
export const SHELL_TEXT = 200;

/** Every `<script>` of a page, with its attributes and its code (raw text in HTML: no parse needed). */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** Script types that run: none, or a JavaScript one (JSON-LD, templates, import maps do not). */
const RUNS = /^\s*(?:(?:text|application)\/(?:java|ecma)script|module)?\s*$/i;
/**
 * Calls that write what a reader sees. A loader that adds a `<script>` or a pixel
 * (analytics: `createElement` and `insertBefore`/`appendChild`) matches none of them.
 */
const WRITES = new RegExp(
	String.raw`\bdocument\.write(?:ln)?\s*\(|\.(?:inner|outer)HTML\s*\+?=(?!=)|\.insertAdjacent(?:HTML|Text)\s*\(|\.(?:textContent|innerText)\s*\+?=(?!=)|` +
		String.raw`\bcreateTextNode\s*\(|\.(?:append|prepend|replaceChildren)\s*\(`,
);
/** A framework's root left empty for its script to fill (React, Vue, Next.js, Nuxt, Gatsby, Angular). */
const EMPTY_ROOT = /<(?:div|main)\b[^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby)\b["']?[^>]*>\s*<\/(?:div|main)>|<app-root\b[^>]*>\s*<\/app-root>/i;
/** String literals in script code (no escapes across quotes; good enough to weigh them). */
const LITERAL = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
/** Words a reader would see: two of them at least, with a space (not a URL, a key or a class name), or a run of CJK characters. */
const WORDS = /\p{L}{2,}[^\S\n]+\p{L}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2,}/u;

/**
 * Whether a page's static HTML is drawn by its scripts, so that `--render auto` renders it
 * even when no rule asks: its visible text is less than SHELL_TEXT characters and a
 * script could fill it in (a `<script src>`, an inline script that writes the page, or a
 * framework's empty root with a script), or its inline scripts would write more words than
 * the page shows. A page with only analytics snippets (which write nothing a reader sees)
 * is not. Cheap: the scripts are found by pattern, and the page is parsed only when one of
 * them could draw it.
 *
 * @example
 * drawnByScript('<body><p id="t"></p><script>t.textContent = "Open on Sundays from ten"</script></body>') // true
 */
export function drawnByScript(html: string): boolean {
	let fromFile = false;
	let inline = false;
	let written = 0;
	let writes = false;
	for (const [, attributes = '', code = ''] of html.matchAll(SCRIPT)) {
		if (/\bsrc\s*=/i.test(attributes)) {
			fromFile = true;
			continue;
		}
		if (!RUNS.test(/\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1] ?? '')) continue;
		inline = true;
		if (!WRITES.test(code)) continue;
		writes = true;
		written += wordsIn(code);
	}
	const emptyRoot = inline && EMPTY_ROOT.test(html);
	if (!fromFile && !writes && !emptyRoot) return false;
	const shown = visibleText(html).length;
	return shown < SHELL_TEXT || written > shown;
}

/** Characters of reader's words in the string literals of `code`, their markup left out. */
function wordsIn(code: string): number {
	let count = 0;
	for (const match of code.matchAll(LITERAL)) {
		const text = (match[1] ?? match[2] ?? match[3] ?? '')
			.replace(/<[^>]*>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim();
		if (WORDS.test(text)) count += text.length;
	}
	return count;
}
