import { nearest } from '../../base/util/suggest.js';
import { AVAILABILITIES } from '../../store/model/product.js';
import { placeOf, type SymbolUse } from './syntax.js';

/**
 * What people used to JavaScript, SQL or Python write in a condition, and what they
 * meant in filtrex's language. Each is found outside "strings" only.
 */
const HABITS: ReadonlyArray<{ pattern: RegExp; hint: (written: string) => string }> = [
	{ pattern: /\|\|?/g, hint: (written) => `write \`or\` for \`${written}\`: the words are and, or, not` },
	{ pattern: /&&?/g, hint: (written) => `write \`and\` for \`${written}\`: the words are and, or, not` },
	{ pattern: /!(?!=)/g, hint: () => 'write `not` for `!`: the words are and, or, not' },
	{ pattern: /(?<![=!<>~])=(?!=)/g, hint: () => 'compare with `==`, not `=`' },
	// Filtrex reads `not(` as one word, a function's name.
	{ pattern: /(?<![\w$.])(?:and|or|not)\(/g, hint: (written) => `write a space after \`${written.slice(0, -1)}\`: \`${written.slice(0, -1)} (…)\`` },
	{
		pattern: /(?<![\w$.])(?:and|or|not)(?![\w$.])/gi,
		hint: (written) => `write \`${written.toLowerCase()}\` for \`${written}\`: the words are and, or, not, in lower case`,
	},
];

/**
 * A hint for a syntax error at `offset`: the nearest habit from another language written
 * at or before where the parser stopped (`NOT in_stock` stops at `in_stock`), or the first
 * anywhere when the parser said not where; undefined when there is none.
 *
 * @example
 * syntaxHint('in_stock || price < 40', 9) // 'write `or` for `||`: the words are and, or, not'
 */
export function syntaxHint(expression: string, offset: number | undefined): string | undefined {
	const text = withoutStrings(expression);
	const found: Array<{ at: number; hint: string }> = [];
	for (const habit of HABITS) {
		for (const match of text.matchAll(habit.pattern)) {
			// Lower-case and, or, not are the language's own.
			if (/^[a-z]+$/.test(match[0])) continue;
			found.push({ at: match.index, hint: habit.hint(match[0]) });
		}
	}
	found.sort((a, b) => a.at - b.at);
	if (offset === undefined) return found[0]?.hint;
	return found.filter((habit) => habit.at <= offset).at(-1)?.hint;
}

/**
 * The problem with a name or a function the condition does not know, where it is, and
 * what was likely meant: text in 'single quotes' (a name in filtrex: text takes double
 * quotes), a schema.org availability or a word compared with `==` written bare (text
 * too), an upper-case AND, `changed-words`, or the nearest known one; the known ones are listed.
 *
 * @example
 * unknownSymbol("availability == 'InStock'", { kind: 'name', text: 'InStock', offset: 16, quoted: true }, ['availability'])
 * // "unknown name 'InStock' at column 17 ('single quotes' make a name: write text in double quotes, \"InStock\")"
 */
export function unknownSymbol(expression: string, use: SymbolUse, known: readonly string[]): string {
	const what = use.kind === 'name' ? (use.quoted ? `name '${use.text}'` : `name \`${use.text}\``) : `function \`${use.text}()\``;
	const head = `unknown ${what}${placeOf(expression, use.offset)}`;
	if (use.quoted) return `${head} ('single quotes' make a name: write text in double quotes, ${JSON.stringify(use.text)})`;
	if (/^(?:and|or|not)$/i.test(use.text)) return `${head} (write \`${use.text.toLowerCase()}\`: the words are and, or, not, in lower case)`;
	const asText = `${head} (text goes in double quotes: ${JSON.stringify(use.text)})`;
	if (use.kind === 'name' && (AVAILABILITIES as readonly string[]).includes(use.text)) return asText;
	const list = `the ${use.kind}s are ${known.filter((name) => name !== 'true' && name !== 'false').join(', ')}`;
	// changed-words reads as changed minus words.
	const hyphened = /^[\w$.]+(?:\s*-\s*[A-Za-z_$][\w$.]*)+/.exec(expression.slice(use.offset))?.[0].replace(/\s*-\s*/g, '_');
	if (hyphened !== undefined && known.includes(hyphened)) return `${head} (did you mean \`${hyphened}\`? \`-\` is a minus here; ${list})`;
	const near = nearest(use.text, known);
	if (near === undefined && use.kind === 'name' && compared(expression, use)) return asText;
	if (near === undefined) return `${head} (${list})`;
	return `${head} (did you mean \`${use.kind === 'name' ? near : `${near}()`}\`? ${list})`;
}

/** Whether a name is compared with `==`, `!=` or `~=`: `currency == EUR` meant the text "EUR". */
function compared(expression: string, use: SymbolUse): boolean {
	const text = withoutStrings(expression);
	return /(?:==|!=|~=)\s*$/.test(text.slice(0, use.offset)) || /^\s*(?:==|!=)/.test(text.slice(use.offset + use.text.length));
}

/** The expression with the inside of every "string" and 'quoted name' blanked, offsets kept. */
function withoutStrings(expression: string): string {
	return expression.replace(/"(?:\\"|\\\\|[^"\\])*"?|'(?:\\'|\\\\|[^'\\])*'?/g, (quoted) => quoted.replace(/[^\n]/g, ' '));
}
