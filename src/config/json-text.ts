import * as jsonc from 'jsonc-parser';
import type { Node } from 'jsonc-parser';

/** A JSON document with the position of every value, for error messages that name a line. */
export interface JsonText {
	value: unknown;
	/** Where a given object or array of `value` sits in the text (identity survives later edits). */
	nodeOf(container: object): Node | undefined;
	/** 1-based line and column of a character offset. */
	position(offset: number): { line: number; column: number };
}

/** A JSON syntax error: where, and what was expected. */
export interface JsonSyntaxError {
	line: number;
	column: number;
	message: string;
}

const EXPECTED: Record<string, string> = {
	InvalidSymbol: 'unexpected character',
	InvalidNumberFormat: 'invalid number',
	PropertyNameExpected: 'expected a property name in double quotes',
	ValueExpected: 'expected a value',
	ColonExpected: 'expected a colon after the property name',
	CommaExpected: 'expected a comma',
	CloseBraceExpected: 'expected a comma or }',
	CloseBracketExpected: 'expected a comma or ]',
	EndOfFileExpected: 'expected the end of the document',
	InvalidCommentToken: 'comments are not allowed in JSON',
	UnexpectedEndOfComment: 'comments are not allowed in JSON',
	UnexpectedEndOfString: 'unterminated string',
	UnexpectedEndOfNumber: 'unterminated number',
	InvalidUnicode: 'invalid \\u escape',
	InvalidEscapeCharacter: 'invalid escape character',
	InvalidCharacter: 'control character in a string (escape it)',
};

/**
 * Parses strict JSON (no comments, no trailing commas), keeping each value's position.
 * A syntax error comes back as `{ error }` with its line and column, never thrown.
 *
 * @example
 * const parsed = parseJsonText('{\n  "a": [1, 2,]\n}');
 * // { error: { line: 2, column: 16, message: 'trailing comma before ]' } }
 */
export function parseJsonText(text: string): { json: JsonText } | { error: JsonSyntaxError } {
	const starts = [0];
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
	const position = (offset: number) => {
		let low = 0;
		let high = starts.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if (starts[middle]! <= offset) low = middle;
			else high = middle - 1;
		}
		return { line: low + 1, column: offset - starts[low]! + 1 };
	};
	const errors: Array<{ error: number; offset: number }> = [];
	const tree = jsonc.parseTree(text, errors as Parameters<typeof jsonc.parseTree>[1], { disallowComments: true, allowTrailingComma: false });
	const first = errors[0];
	if (first || !tree) {
		const offset = first?.offset ?? 0;
		return {
			error: { ...position(offset), message: describeSyntaxError(text, offset, first ? jsonc.printParseErrorCode(first.error as never) : 'ValueExpected') },
		};
	}
	const nodes = new WeakMap<object, Node>();
	return { json: { value: valueOf(tree, nodes), nodeOf: (container) => nodes.get(container), position } };
}

function describeSyntaxError(text: string, offset: number, code: string): string {
	if (offset >= text.trimEnd().length) return code === 'ValueExpected' && text.trim() === '' ? 'the file is empty' : 'unexpected end of the file';
	const closing = text[offset];
	if ((closing === '}' || closing === ']') && text.slice(0, offset).trimEnd().endsWith(',')) return `trailing comma before ${closing}`;
	if (code === 'InvalidSymbol' && text[offset] === "'") return 'strings and names take double quotes';
	return EXPECTED[code] ?? code;
}

/** The JavaScript value of a node, registering each object and array's node. Keys are own properties, `__proto__` included. */
function valueOf(node: Node, nodes: WeakMap<object, Node>): unknown {
	if (node.type === 'array') {
		const array = (node.children ?? []).map((child) => valueOf(child, nodes));
		nodes.set(array, node);
		return array;
	}
	if (node.type === 'object') {
		const object: Record<string, unknown> = {};
		for (const property of node.children ?? []) {
			const [key, value] = property.children ?? [];
			if (!key || !value) continue;
			Object.defineProperty(object, String(key.value), { value: valueOf(value, nodes), enumerable: true, writable: true, configurable: true });
		}
		nodes.set(object, node);
		return object;
	}
	return node.value;
}

/**
 * The node of `key` in an object node: its property (key and value), or undefined.
 *
 * @example
 * propertyNode(objectNode, 'concurrency')?.children?.[1]  // the value's node
 */
export function propertyNode(object: Node, key: string): Node | undefined {
	return object.children?.find((property) => property.children?.[0]?.value === key);
}
