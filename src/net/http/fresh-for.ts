/**
 * How long a response says it stays fresh (RFC 9111, 4.2.1), in ms: `Cache-Control:
 * max-age` less `Age`, else `Expires` less `Date`; 0 for `no-cache` or `no-store`;
 * undefined when it says nothing (no heuristic freshness: that would be revisit guessing,
 * not the server saying). What a host's max-age trust is measured on (domain/schedule/signals.ts).
 *
 * @example
 * freshFor({ 'cache-control': 'public, max-age=600' }) // 600_000
 */
export function freshFor(headers: Record<string, string | string[] | undefined>): number | undefined {
	const cacheControl = first(headers['cache-control']);
	if (cacheControl !== undefined) {
		const directives = cacheControl
			.toLowerCase()
			.split(',')
			.map((part) => part.trim());
		if (directives.some((directive) => directive === 'no-cache' || directive === 'no-store')) return 0;
		const maxAge = directives.map((directive) => /^max-age\s*=\s*"?(\d+)"?$/.exec(directive)?.[1]).find((value) => value !== undefined);
		if (maxAge !== undefined) return Math.max(0, (Number(maxAge) - (Number(first(headers.age)) || 0)) * 1000);
	}
	const expires = first(headers.expires);
	if (expires === undefined) return undefined;
	const at = Date.parse(expires);
	const date = Date.parse(first(headers.date) ?? '');
	// An unreadable Expires ("0") means already expired; without Date there is no clock to measure it on.
	if (!Number.isFinite(at)) return 0;
	return Number.isFinite(date) ? Math.max(0, at - date) : undefined;
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
