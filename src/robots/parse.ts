/** RFC 9309 §2.5: a crawler must parse at least 500 KiB; we stop there. */
export const PARSE_LIMIT_BYTES = 500 * 1024;

/** One allow or disallow line, as written (after percent-encoding normalisation). */
export interface RobotsRule {
	allow: boolean;
	/** The path pattern, normalised (`normalisePath`); may hold `*` and a final `$`. */
	pattern: string;
	/** The pattern as written in the file, for `revisit robots URL`. */
	written: string;
	/** 1-based line in the file. */
	line: number;
}

/** A group: the user-agent lines that open it and the rules that follow. */
export interface RobotsGroup {
	/** Product tokens, lower-cased (`*` for the catch-all). */
	agents: string[];
	rules: RobotsRule[];
	/** Seconds, from a `Crawl-delay` line (not in the RFC, widely honoured). */
	crawlDelay?: number | undefined;
	/** 1-based line of the group's first user-agent line. */
	line: number;
}

export interface Robots {
	groups: RobotsGroup[];
	/** The file was cut at PARSE_LIMIT_BYTES. */
	truncated: boolean;
}

/**
 * Parses a robots.txt body per RFC 9309: groups of user-agent lines followed by allow and
 * disallow rules; comments, unknown keys and rules outside any group are ignored; only
 * the first PARSE_LIMIT_BYTES are read (a line cut there is dropped).
 *
 * @example
 * parseRobots('User-agent: *\nDisallow: /private/\n').groups[0].rules[0].pattern // '/private/'
 */
export function parseRobots(body: string | Buffer): Robots {
	let bytes = typeof body === 'string' ? Buffer.from(body) : body;
	const truncated = bytes.length > PARSE_LIMIT_BYTES;
	if (truncated) {
		bytes = bytes.subarray(0, PARSE_LIMIT_BYTES);
		// The last line is cut mid-way: drop it.
		const end = bytes.lastIndexOf(0x0a);
		bytes = bytes.subarray(0, end === -1 ? 0 : end);
	}
	let text = bytes.toString('utf8');
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	const groups: RobotsGroup[] = [];
	let current: RobotsGroup | undefined;
	// A user-agent line right after another (or at the start of a group) joins the same group.
	let openingAgents = false;
	const lines = text.split(/\r\n|\r|\n/);
	lines.forEach((raw, index) => {
		const hash = raw.indexOf('#');
		const line = (hash === -1 ? raw : raw.slice(0, hash)).trim();
		const colon = line.indexOf(':');
		if (colon === -1) return;
		const key = line.slice(0, colon).trim().toLowerCase();
		const value = line.slice(colon + 1).trim();
		if (key === 'user-agent') {
			if (!current || !openingAgents) {
				current = { agents: [], rules: [], line: index + 1 };
				groups.push(current);
				openingAgents = true;
			}
			current.agents.push(productToken(value));
			return;
		}
		if (key === 'allow' || key === 'disallow') {
			openingAgents = false;
			// Rules outside any group, and empty rules, match nothing.
			if (!current || value === '') return;
			current.rules.push({ allow: key === 'allow', pattern: normalisePath(value), written: value, line: index + 1 });
			return;
		}
		if (key === 'crawl-delay') {
			openingAgents = false;
			const seconds = Number(value);
			if (current && value !== '' && Number.isFinite(seconds) && seconds >= 0) current.crawlDelay = Math.max(current.crawlDelay ?? 0, seconds);
			return;
		}
		// Sitemap and unknown keys neither open nor close a group.
	});
	return { groups, truncated };
}

/**
 * The product token a user-agent line names, lower-cased: its leading letters, `_` and
 * `-` (RFC 9309 §2.2.1), so `Googlebot/2.1` names `googlebot`; `*` stays `*`.
 */
export function productToken(value: string): string {
	const trimmed = value.trim();
	if (trimmed.startsWith('*')) return '*';
	return (/^[A-Za-z_-]+/.exec(trimmed)?.[0] ?? trimmed).toLowerCase();
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * A path (or a rule's pattern) in one canonical form, so that the two compare octet for
 * octet (RFC 9309 §2.2.2): characters outside ASCII are percent-encoded as UTF-8,
 * percent-encoded unreserved characters are decoded, other escapes get upper-case hex.
 *
 * @example
 * normalisePath('/foo/bar/ツ') // '/foo/bar/%E3%83%84'
 * normalisePath('/foo/bar/%62%61%7a') // '/foo/bar/baz'
 */
export function normalisePath(path: string): string {
	let out = '';
	for (let i = 0; i < path.length; i++) {
		const char = path[i]!;
		if (char === '%' && /^[0-9A-Fa-f]{2}$/.test(path.slice(i + 1, i + 3))) {
			const decoded = String.fromCharCode(Number.parseInt(path.slice(i + 1, i + 3), 16));
			out += UNRESERVED.test(decoded) ? decoded : `%${path.slice(i + 1, i + 3).toUpperCase()}`;
			i += 2;
		} else if (char.charCodeAt(0) > 0x7e || char.charCodeAt(0) < 0x21) {
			const point = path.codePointAt(i)!;
			const whole = String.fromCodePoint(point);
			out += encodeURIComponent(whole);
			i += whole.length - 1;
		} else {
			out += char;
		}
	}
	return out;
}
