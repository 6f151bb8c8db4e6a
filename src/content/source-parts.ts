import { createHash } from 'node:crypto';
import type { AnyNode, Element } from 'domhandler';

/**
 * The parts of an HTML page's source a reader does not see, each hashed apart, so that a
 * change whose visible text did not move can still say where its bytes did. The store
 * keeps no old body, only this: a line of its decoded size and one short hash a part.
 */
const PARTS = ['text', 'scripts', 'styles', 'attributes', 'comments', 'markup'] as const;

type Part = (typeof PARTS)[number];

// Short: it is kept in every HTML page's record. 48 bits tell two versions of one part apart.
const shortHash = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 8);

/**
 * The fingerprint of a parsed HTML page: its decoded size in bytes and a hash of each of
 * its parts (its visible text as given, its scripts, its styles, its attributes, its
 * comments, and its tags' names in order), space-separated.
 *
 * @example
 * sourceParts(parseHtml(html), visibleTextOf(document), Buffer.byteLength(html)) // '5120 a1B2c3D4 …'
 */
export function sourceParts(document: AnyNode, text: string, bytes: number): string {
	const scripts: string[] = [];
	const styles: string[] = [];
	const attributes: string[] = [];
	const comments: string[] = [];
	const markup: string[] = [];
	const walk = (node: AnyNode, into: string[] | undefined): void => {
		const data = (node as unknown as { data?: string }).data;
		if (node.type === 'comment') return void comments.push(data!);
		if (node.type === 'text') return void into?.push(data!);
		// A doctype (a processing instruction, with a name of its own but no attributes).
		if (node.type === 'directive') return void markup.push(data!);
		const element = node as Element;
		if (element.type !== 'tag' && element.type !== 'script' && element.type !== 'style') {
			for (const child of element.children ?? []) walk(child, into);
			return;
		}
		markup.push(element.name);
		for (const [name, value] of Object.entries(element.attribs)) attributes.push(`${element.name} ${name}=${value}`);
		const inner = element.type === 'script' ? scripts : element.type === 'style' ? styles : undefined;
		for (const child of element.children ?? []) walk(child, inner ?? into);
		if (inner) inner.push('\u0000');
	};
	walk(document, undefined);
	const hashes: Record<Part, string> = {
		text: shortHash(text),
		scripts: shortHash(scripts.join('')),
		styles: shortHash(styles.join('')),
		attributes: shortHash(attributes.join('\u0000')),
		comments: shortHash(comments.join('\u0000')),
		markup: shortHash(markup.join(' ')),
	};
	return [String(bytes), ...PARTS.map((part) => hashes[part])].join(' ');
}

const WHERE: Record<Exclude<Part, 'text'>, string> = {
	scripts: 'the scripts',
	styles: 'the styles',
	attributes: 'the attributes',
	comments: 'the comments',
	markup: 'the tags',
};

const count = (bytes: string): string => Number(bytes).toLocaleString('en-US');

/**
 * What moved between two fingerprints (`sourceParts`) whose visible text is the same, in
 * words: the size before and after, and which parts moved (or, where none did, that
 * only whitespace or text a reader does not see did: `<noscript>`, `<template>`). Undefined when the text moved,
 * or either fingerprint is not one.
 *
 * @example
 * bytesMoved(before, after) // 'the text is the same; the bytes changed: 1,204 → 1,231 bytes, in the scripts'
 */
export function bytesMoved(before: string, after: string): string | undefined {
	const [bytesBefore, ...was] = before.split(' ');
	const [bytesAfter, ...now] = after.split(' ');
	if (was.length !== PARTS.length || now.length !== PARTS.length || was[0] !== now[0]) return undefined;
	const moved = PARTS.flatMap((part, i) => (part !== 'text' && was[i] !== now[i] ? [WHERE[part]] : []));
	const size = bytesBefore === bytesAfter ? `${count(bytesAfter!)} bytes before and after` : `${count(bytesBefore!)} → ${count(bytesAfter!)} bytes`;
	const where = moved.length === 0 ? 'only in whitespace or in text a reader does not see' : `in ${moved.length === 1 ? moved[0] : `${moved.slice(0, -1).join(', ')} and ${moved.at(-1)}`}`;
	return `the text is the same; the bytes changed: ${size}, ${where}`;
}
