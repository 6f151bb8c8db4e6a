import type { AnyNode } from 'domhandler';
import type { PagePlace } from './scan.js';

/**
 * How far apart two nodes are in the tree: the steps up from each to the nearest element
 * holding both. A price in the title's own block is a step or two from it; one in a
 * carousel further down the page is many.
 *
 * @example
 * treeDistance(h1, price) // 3 for <div><h1/><p><span class="price"/></p></div>
 */
export function treeDistance(a: AnyNode, b: AnyNode): number {
	const depths = new Map<AnyNode, number>();
	let steps = 0;
	for (let node: AnyNode | null = a; node; node = node.parent) depths.set(node, steps++);
	steps = 0;
	for (let node: AnyNode | null = b; node; node = node.parent, steps++) {
		const up = depths.get(node);
		if (up !== undefined) return up + steps;
	}
	return Number.POSITIVE_INFINITY;
}

/**
 * Whether `inner` lies inside `outer` (not `outer` itself).
 *
 * @example
 * inside(span, div) // true for <div><p><span/></p></div>
 */
export function inside(inner: AnyNode, outer: AnyNode): boolean {
	for (let node = inner.parent; node; node = node.parent) if (node === outer) return true;
	return false;
}

/**
 * Of `places`, the one nearest the anchors (the product's title and buy button) by
 * `treeDistance` plus its `penalty`, then nearest the first anchor in page order, then
 * first in page order; the first, with no anchors. Undefined for none.
 *
 * @example
 * nearestPlace(prices, [title, button], (place) => (named(place) ? 0 : 2))
 */
export function nearestPlace<T extends PagePlace>(places: readonly T[], anchors: readonly PagePlace[], penalty: (place: T) => number = () => 0): T | undefined {
	let best: T | undefined;
	let bestScore: readonly number[] = [];
	const score = scorer(anchors, penalty);
	for (const place of places) {
		const its = score(place);
		if (best === undefined || lessThan(its, bestScore)) {
			best = place;
			bestScore = its;
		}
	}
	return best;
}

/**
 * `places` nearest first, as `nearest` ranks them: for taking the nearest of those that pass
 * a test dearer than ranking them (a stock note's words), asking the nearest first.
 *
 * @example
 * byNearness(notes, [title])[0] === nearestPlace(notes, [title]) // true
 */
export function byNearness<T extends PagePlace>(places: readonly T[], anchors: readonly PagePlace[]): T[] {
	const score = scorer(anchors, () => 0);
	return places
		.map((place) => ({ place, score: score(place) }))
		.sort((a, b) => (lessThan(a.score, b.score) ? -1 : lessThan(b.score, a.score) ? 1 : 0))
		.map(({ place }) => place);
}

/** A place's score: its distance to the nearest anchor plus its penalty, its distance in page order to the first anchor, its place in page order. */
function scorer<T extends PagePlace>(anchors: readonly PagePlace[], penalty: (place: T) => number): (place: T) => number[] {
	// Each anchor's ancestors once, not once per place.
	const ups = anchors.map((anchor) => {
		const depths = new Map<AnyNode, number>();
		let steps = 0;
		for (let node: AnyNode | null = anchor.element; node; node = node.parent) depths.set(node, steps++);
		return depths;
	});
	const distance = (element: AnyNode): number => {
		let least = Number.POSITIVE_INFINITY;
		for (const depths of ups) {
			let steps = 0;
			for (let node: AnyNode | null = element; node; node = node.parent, steps++) {
				const up = depths.get(node);
				if (up !== undefined) {
					least = Math.min(least, up + steps);
					break;
				}
			}
		}
		return least;
	};
	return (place) => [
		(anchors.length === 0 ? 0 : distance(place.element)) + penalty(place),
		anchors.length === 0 ? 0 : Math.abs(place.index - anchors[0]!.index),
		place.index,
	];
}

const lessThan = (a: readonly number[], b: readonly number[]): boolean => {
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
	return false;
};
