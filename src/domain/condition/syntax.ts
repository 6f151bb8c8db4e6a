/**
 * Reading an expression's text: where filtrex's parser stopped, and which names it uses.
 * Filtrex throws its parser's message (the hash with the location is dropped), whose
 * second and third lines show up to 20 characters either side of the error and a caret.
 */

/** Words of the language that are not names (filtrex's lexer takes them when a non-word character follows). */
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'of', 'if', 'then', 'else', 'mod']);

// Filtrex's lexer, as far as names go: strings, quoted names, bare names (dots allowed), the rest.
const TOKENS = /"(?:\\"|\\\\|[^"\\])*"|'((?:\\'|\\\\|[^'\\])*)'|([a-zA-Z$_][.a-zA-Z0-9$_]*)(\s*\()?|[\s\S]/g;

/** A name or a function an expression uses, where it is written (UTF-16 offset), and whether it is in 'single quotes'. */
export interface SymbolUse {
	kind: 'name' | 'function';
	text: string;
	offset: number;
	quoted: boolean;
}

/**
 * Every use of a name or a function in an expression that parsed, in order.
 *
 * @example
 * symbolUses("price < 4 or 'InStock'")
 * // [{ kind: 'name', text: 'price', offset: 0, quoted: false }, { kind: 'name', text: 'InStock', offset: 13, quoted: true }]
 */
export function symbolUses(expression: string): SymbolUse[] {
	const uses: SymbolUse[] = [];
	for (const match of expression.matchAll(TOKENS)) {
		const [, quoted, bare, call] = match;
		if (quoted !== undefined) uses.push({ kind: 'name', text: quoted.replace(/\\(['\\])/g, '$1'), offset: match.index, quoted: true });
		else if (bare === undefined || KEYWORDS.has(bare)) continue;
		else uses.push({ kind: call !== undefined ? 'function' : 'name', text: bare, offset: match.index, quoted: false });
	}
	return uses;
}

/**
 * The names and the functions an expression that parsed uses, in order of first use.
 *
 * @example
 * namesUsed('contains(text, "sold") and price < 40') // { names: ['text', 'price'], functions: ['contains'] }
 */
export function namesUsed(expression: string): { names: string[]; functions: string[] } {
	const uses = symbolUses(expression);
	const of = (kind: SymbolUse['kind']) => [...new Set(uses.filter((use) => use.kind === kind).map((use) => use.text))];
	return { names: of('name'), functions: of('function') };
}

/**
 * The 1-based line and column a filtrex parse or lexical error points at, read from its
 * message's caret against the expression; undefined when the message has none.
 *
 * @example
 * errorPosition('price <<< 40', 'Parse error on line 1:\nprice <<< 40\n-------^\nExpecting …') // { line: 1, column: 8 }
 */
export function errorPosition(expression: string, message: string): { line: number; column: number } | undefined {
	const offset = errorOffset(expression, message);
	return offset === undefined ? undefined : lineAndColumn(expression, offset);
}

/**
 * The offset (in UTF-16 units) in the expression that a filtrex parse or lexical error
 * points at; undefined when its message has no caret.
 *
 * @example
 * errorOffset('price <<< 40', 'Parse error on line 1:\nprice <<< 40\n-------^\nExpecting …') // 7
 */
export function errorOffset(expression: string, message: string): number | undefined {
	const lines = message.split('\n');
	const caret = lines[2]?.match(/^(-*)\^$/);
	if (!caret || lines[1] === undefined) return undefined;
	// The shown text has its newlines taken out: match it against the expression with them out too, keeping where each character was
	// (in UTF-16 units, as the parser counts).
	const kept = expression.split('').flatMap((char, i) => (char === '\n' ? [] : [[char, i] as const]));
	const flat = kept.map(([char]) => char).join('');
	let before = lines[1].slice(0, caret[1]!.length);
	let after = lines[1].slice(caret[1]!.length);
	const cutBefore = before.startsWith('...');
	if (cutBefore) before = before.slice(3);
	if (after.length > 20 && after.endsWith('...')) after = after.slice(0, -3);
	let at: number | undefined;
	for (let i = before.length; i <= flat.length; i++) {
		if ((cutBefore ? i > 20 : i === before.length) && flat.slice(i - before.length, i) === before && flat.startsWith(after, i)) {
			at = i;
			break;
		}
	}
	if (at === undefined) return undefined;
	return at < kept.length ? kept[at]![1] : expression.length;
}

/**
 * The 1-based line and column of an offset (in UTF-16 units) in an expression, the column
 * counted in characters.
 *
 * @example
 * lineAndColumn('a\nbc', 3) // { line: 2, column: 2 }
 */
export function lineAndColumn(expression: string, offset: number): { line: number; column: number } {
	const lineStart = expression.lastIndexOf('\n', offset - 1) + 1;
	return { line: expression.slice(0, lineStart).split('\n').length, column: [...expression.slice(lineStart, offset)].length + 1 };
}

/**
 * Where something is in an expression, as the messages say it: ` at column 8`, or
 * ` at line 2, column 3` when the expression has several lines; '' for no offset.
 *
 * @example
 * placeOf('price <<< 40', 7) // ' at column 8'
 */
export function placeOf(expression: string, offset: number | undefined): string {
	if (offset === undefined) return '';
	const at = lineAndColumn(expression, offset);
	return expression.includes('\n') ? ` at line ${at.line}, column ${at.column}` : ` at column ${at.column}`;
}
