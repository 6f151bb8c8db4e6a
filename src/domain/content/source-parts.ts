import { createHash } from 'node:crypto';
import type { AnyNode, Comment, Document, Element, ProcessingInstruction, Text } from 'domhandler';

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
	// Strings added to, not arrays joined: this walks every HTML page a sweep downloads.
	let scripts = '';
	let styles = '';
	let attributes = '';
	let comments = '';
	let markup = '';
	const walk = (node: AnyNode, inside: 'script' | 'style' | undefined): void => {
		const type = node.type;
		if (type === 'tag' || type === 'script' || type === 'style') {
			const element = node as Element;
			markup += `${element.name} `;
			const attribs = element.attribs;
			for (const name in attribs) attributes += `${name}=${attribs[name]}\u0000`;
			const into = type === 'tag' ? inside : type;
			for (const child of element.children) walk(child, into);
			if (into === 'script') scripts += '\u0000';
			else if (into === 'style') styles += '\u0000';
		} else if (type === 'text') {
			if (inside === 'script') scripts += (node as Text).data;
			else if (inside === 'style') styles += (node as Text).data;
		} else if (type === 'comment') comments += `${(node as Comment).data}\u0000`;
		// A doctype (a processing instruction, with a name of its own but no attributes).
		else if (type === 'directive') markup += `${(node as ProcessingInstruction).data} `;
		else for (const child of (node as Document).children) walk(child, inside);
	};
	walk(document, undefined);
	const hashes: Record<Part, string> = {
		text: shortHash(text),
		scripts: shortHash(scripts),
		styles: shortHash(styles),
		attributes: shortHash(attributes),
		comments: shortHash(comments),
		markup: shortHash(markup),
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
	const where =
		moved.length === 0
			? 'only in whitespace or in text a reader does not see'
			: `in ${moved.length === 1 ? moved[0] : `${moved.slice(0, -1).join(', ')} and ${moved.at(-1)}`}`;
	return `the text is the same; the bytes changed: ${size}, ${where}`;
}
