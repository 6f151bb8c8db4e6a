/** How a page cache keeps its pages: for how long after one is built, how many at most, on which clock. */
export interface PageCacheOptions {
	/** A page built less than this long ago (ms) is served as it is. */
	maxAgeMs: number;
	/** Pages kept at once (one per key); the oldest goes first. */
	max: number;
	now?: () => number;
}

/** Pages by key, each built at most once per window. */
export interface PageCache<T> {
	get(key: string): Promise<T>;
}

/**
 * Serves each key's page from its last build while that is younger than `maxAgeMs`
 * (counted from when the build ended), builds it again on the first request after,
 * and never builds one key twice at once: requests that arrive during a build wait for
 * it. Nothing is built while nobody asks. A failed build is kept for its window too, so
 * that a failing store is not asked on every request.
 *
 * @example
 * const pages = pageCache((key) => renderPage(key), { maxAgeMs: 5000, max: 16 });
 * const html = await pages.get('first');
 */
export function pageCache<T>(build: (key: string) => Promise<T>, options: PageCacheOptions): PageCache<T> {
	const now = options.now ?? Date.now;
	const pages = new Map<string, { page: Promise<T>; builtAt?: number }>();
	return {
		get(key) {
			const at = now();
			for (const [old, entry] of pages) if (entry.builtAt !== undefined && at - entry.builtAt >= options.maxAgeMs) pages.delete(old);
			const kept = pages.get(key);
			if (kept) return kept.page;
			// Map order is insertion order: the first key is the oldest build.
			if (pages.size >= options.max) pages.delete(pages.keys().next().value!);
			const entry: { page: Promise<T>; builtAt?: number } = { page: build(key) };
			const settle = (): void => void (entry.builtAt = now());
			entry.page.then(settle, settle);
			pages.set(key, entry);
			return entry.page;
		},
	};
}
