/**
 * The allowed name nearest to `given`, for "did you mean" hints: a case-insensitive
 * match first, then the smallest edit distance within a third of the name's length
 * (at least 2). Undefined when nothing is close.
 *
 * @example
 * nearest('perhost', ['concurrency', 'perHost']) // 'perHost'
 * nearest('xyz', ['concurrency']) // undefined
 */
export function nearest(given: string, allowed: readonly string[]): string | undefined {
	const lower = given.toLowerCase();
	const folded = allowed.find((name) => name.toLowerCase() === lower || name.replaceAll('-', '').toLowerCase() === lower.replaceAll(/[-_]/g, ''));
	if (folded) return folded;
	let best: string | undefined;
	let bestDistance = Math.max(2, Math.floor(given.length / 3)) + 1;
	for (const name of allowed) {
		const distance = editDistance(lower, name.toLowerCase());
		if (distance < bestDistance) {
			best = name;
			bestDistance = distance;
		}
	}
	return best;
}

/** Levenshtein distance, with a swap of neighbours counted as one edit. */
export function editDistance(a: string, b: string): number {
	const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
			rows[i]![j] = value;
		}
	}
	return rows[a.length]![b.length]!;
}

/** "a, b or c" */
export function listOf(names: readonly string[], conjunction = 'or'): string {
	return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}
