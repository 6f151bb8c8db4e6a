import { diffArrays } from 'diff';
import render from 'dom-serializer';
import type { AnyNode, ChildNode, Element, ParentNode } from 'domhandler';
import { removeElement, textContent } from 'domutils';
import { parseHtml } from '../html/parse.js';

/**
 * Where in an HTML document a difference lies, as a path of element signatures from the
 * root: `html>body>main.product>aside.ad` (an element, masked whole), `…>p.when>#text`
 * (a text node), `…>script@nonce` (an attribute). A signature is the tag with its
 * classes, those that hold no digit (`css-1x2f`, `ad-83742` change from page to page; ids
 * are left out, as random ones are common), and
 * `:N` when it is the N-th sibling (from 0) with that signature. Classes rather than
 * positions, so that a stock line present on one page and not on another does not shift
 * the place of the ad block after it.
 */
export type HtmlLocation = string;

const STABLE = /^[A-Za-z_-]+$/;
/** Elements never masked whole: the page itself. */
const NEVER_WHOLE = new Set(['html', 'head', 'body']);

/** A child's key among its siblings: its signature, `#text` or `#comment`; undefined for what does not count. */
function keyOf(node: AnyNode): string | undefined {
	if (node.type === 'text') return '#text';
	if (node.type === 'comment') return '#comment';
	if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return undefined;
	const element = node as Element;
	let key = element.name;
	const classes = (element.attribs['class'] ?? '')
		.split(/\s+/)
		.filter((name) => name !== '' && STABLE.test(name))
		.sort();
	for (const name of classes) key += `.${name}`;
	return key;
}

interface Keyed {
	key: string;
	/** The segment of the path: key, with `:N` for the N-th sibling of that key. */
	segment: string;
	node: ChildNode;
}

function keyedChildren(parent: ParentNode): Keyed[] {
	const seen = new Map<string, number>();
	const out: Keyed[] = [];
	for (const node of parent.children) {
		const key = keyOf(node);
		if (key === undefined) continue;
		const n = seen.get(key) ?? 0;
		seen.set(key, n + 1);
		out.push({ key, segment: n === 0 ? key : `${key}:${n}`, node });
	}
	return out;
}

const join = (path: string, segment: string): string => (path === '' ? segment : `${path}>${segment}`);

/**
 * The locations where two HTML documents differ: an element whose text or children
 * differ is learned whole (masked whatever it holds next time), unless one of its element
 * children is the same on both sides, when only the text nodes and children that differ
 * are; attributes whose value differs are learned alone. `protectTop` (a `select` rule: the top level is what the user
 * chose to watch) keeps the top-level elements and their own text from being learned;
 * an element holding more than half the document's text is never learned whole either.
 *
 * @example
 * htmlDifferences('<p class="a">x</p><aside class="ad">Gym offer</aside>', '<p class="a">x</p><aside class="ad"><b>Cheap</b> flights</aside>')
 * // ['aside.ad']  (masked whole from then on, whatever it holds)
 */
export function htmlDifferences(first: string, second: string, protectTop = false): HtmlLocation[] {
	const a = parseHtml(first);
	const b = parseHtml(second);
	const total = Math.max(textContent(a).length, textContent(b).length);
	const found = new Set<string>();
	const learn = (path: string, node: ChildNode | undefined) => {
		const depth = path.split('>').length;
		if (protectTop && (depth === 1 || (depth === 2 && node?.type !== 'tag' && !path.includes('@')))) return;
		if (node && (node.type === 'tag' || node.type === 'script' || node.type === 'style')) {
			if (NEVER_WHOLE.has((node as Element).name)) return;
			if (total > 0 && textContent(node).length * 2 > total) return;
		}
		found.add(path);
	};
	const allowed = (path: string, node: ChildNode): boolean => {
		const before = found.size;
		learn(path, node);
		if (found.size === before) return false;
		found.delete(path);
		return true;
	};
	// Children that differ (text, comments, or elements added or taken away) are learned in
	// the element whole, unless an element child of it is the same on both sides: then only
	// what differs is, so that a price next to a rotating line stays counted.
	const walk = (left: ParentNode, right: ParentNode, path: string) => {
		const l = keyedChildren(left);
		const r = keyedChildren(right);
		const local: Array<[string, ChildNode]> = [];
		const pairs: Array<[Keyed, Keyed]> = [];
		let intact = false;
		let i = 0;
		let j = 0;
		for (const part of diffArrays(
			l.map((child) => child.key),
			r.map((child) => child.key),
		)) {
			const count = part.count ?? part.value.length;
			if (part.removed) {
				for (const child of l.slice(i, i + count)) local.push([join(path, child.segment), child.node]);
				i += count;
			} else if (part.added) {
				for (const child of r.slice(j, j + count)) local.push([join(path, child.segment), child.node]);
				j += count;
			} else {
				for (let k = 0; k < count; k++) {
					const x = l[i + k]!;
					const y = r[j + k]!;
					if (x.node.type === 'text' || x.node.type === 'comment') {
						if ((x.node as { data: string }).data !== (y.node as { data: string }).data) local.push([join(path, x.segment), x.node]);
					} else if (render(x.node) === render(y.node)) intact = true;
					else pairs.push([x, y]);
				}
				i += count;
				j += count;
			}
		}
		if (local.length > 0 && !intact && path !== '' && allowed(path, left as unknown as ChildNode)) {
			learn(path, left as unknown as ChildNode);
			return;
		}
		for (const [where, node] of local) learn(where, node);
		for (const [x, y] of pairs) pair(x, y, path);
	};
	const pair = (left: Keyed, right: Keyed, parent: string) => {
		const path = join(parent, left.segment);
		const x = (left.node as Element).attribs;
		const y = (right.node as Element).attribs;
		for (const name of new Set([...Object.keys(x), ...Object.keys(y)])) {
			if (x[name] !== y[name]) learn(`${path}@${name}`, undefined);
		}
		walk(left.node as Element, right.node as Element, path);
	};
	walk(a, b, '');
	return [...found];
}

/**
 * The document with the learned locations taken out: elements and text nodes removed,
 * attributes dropped. A location the document does not have is skipped. The document is
 * rendered again even when nothing matched, so that the same text always gives the same
 * result whatever the locations.
 *
 * @example
 * maskHtml('<p class="when">at 09:14</p><p class="price">5</p>', ['p.when>#text']) // '<p class="when"></p><p class="price">5</p>'
 */
export function maskHtml(text: string, locations: readonly HtmlLocation[]): string {
	const document = parseHtml(text);
	const removals: ChildNode[] = [];
	const attributes: Array<[Element, string]> = [];
	for (const location of locations) {
		const at = location.lastIndexOf('@');
		const attribute = at > location.lastIndexOf('>') ? location.slice(at + 1) : undefined;
		const node = resolve(document, attribute === undefined ? location : location.slice(0, at));
		if (node === undefined) continue;
		if (attribute === undefined) removals.push(node);
		else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') attributes.push([node as Element, attribute]);
	}
	for (const [element, name] of attributes) delete element.attribs[name];
	for (const node of removals) removeElement(node);
	return render(document);
}

function resolve(root: ParentNode, path: string): ChildNode | undefined {
	let current: ParentNode = root;
	let node: ChildNode | undefined;
	for (const segment of path.split('>')) {
		node = keyedChildren(current).find((child) => child.segment === segment)?.node;
		if (node === undefined) return undefined;
		current = node as unknown as ParentNode;
	}
	return node;
}
