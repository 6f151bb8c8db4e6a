/**
 * Learned noise in JSON: where two documents differ, as JSON Pointers (RFC 6901), each
 * masked whole from then on (an object's key dropped, an array's item nulled so the
 * others keep their places). Counted text of several pointers (one JSON value a line) is
 * read line by line; a location then starts with `#N` for line N: `#1/data/views`.
 */
export type JsonLocation = string;

/** The JSON values of a counted text: the whole text when it parses, else each line; undefined when it is not JSON. */
export function jsonParts(text: string): { parts: unknown[]; lines: boolean } | undefined {
	const head = text.trimStart()[0];
	if (head !== '{' && head !== '[') return undefined;
	try {
		return { parts: [JSON.parse(text)], lines: false };
	} catch {
		try {
			return { parts: text.split('\n').map((line) => JSON.parse(line) as unknown), lines: true };
		} catch {
			return undefined;
		}
	}
}

const escape = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
const unescape = (token: string): string => token.replaceAll('~1', '/').replaceAll('~0', '~');
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The pointers at which two JSON texts differ: a scalar that changed, a key found on one
 * side only, an array whose length changed (whole). The document itself (a part's root,
 * what a `pointer` rule selected) is never learned.
 *
 * @example
 * jsonDifferences('{"price":5,"requestId":"a7f"}', '{"price":5,"requestId":"c01"}') // ['/requestId']
 */
export function jsonDifferences(first: string, second: string): JsonLocation[] {
	const a = jsonParts(first);
	const b = jsonParts(second);
	if (!a || !b || a.parts.length !== b.parts.length || a.lines !== b.lines) return [];
	const found: string[] = [];
	const walk = (x: unknown, y: unknown, pointer: string, prefix: string) => {
		if (JSON.stringify(x) === JSON.stringify(y)) return;
		if (isObject(x) && isObject(y)) {
			for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[key], y[key], `${pointer}/${escape(key)}`, prefix);
			return;
		}
		if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
			x.forEach((item, i) => walk(item, y[i], `${pointer}/${i}`, prefix));
			return;
		}
		if (pointer !== '') found.push(`${prefix}${pointer}`);
	};
	a.parts.forEach((part, i) => walk(part, b.parts[i], '', a.lines ? `#${i}` : ''));
	return found;
}

/**
 * The JSON text with the learned pointers masked, keys sorted; the text as it is when it
 * is not JSON.
 *
 * @example
 * maskJson('{"price":5,"requestId":"a7f"}', ['/requestId']) // '{"price":5}'
 */
export function maskJson(text: string, locations: readonly JsonLocation[]): string {
	const read = jsonParts(text);
	if (!read) return text;
	for (const location of locations) {
		const hash = /^#(\d+)/.exec(location);
		const index = hash ? Number(hash[1]) : 0;
		if (read.lines !== (hash !== null) || index >= read.parts.length) continue;
		const tokens = location
			.slice(hash ? hash[0].length : 0)
			.split('/')
			.slice(1)
			.map(unescape);
		const last = tokens.pop();
		if (last === undefined) continue;
		let current: unknown = read.parts[index];
		for (const token of tokens) current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[token] : undefined;
		if (Array.isArray(current) && /^\d+$/.test(last) && Number(last) < current.length) current[Number(last)] = null;
		else if (isObject(current)) delete current[last];
	}
	return read.parts.map((part) => sorted(part)).join('\n');
}

function sorted(value: unknown): string {
	return (
		JSON.stringify(value, (_key, inner: unknown) =>
			isObject(inner)
				? Object.fromEntries(
						Object.keys(inner)
							.sort()
							.map((key) => [key, inner[key]]),
					)
				: inner,
		) ?? 'null'
	);
}
