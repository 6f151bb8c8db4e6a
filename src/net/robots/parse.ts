import { groupAgent } from './agent.js';

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
	/** The names its user-agent lines give (`groupAgent`): lower-cased, `*` for the catch-all, `` for none. */
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
 * Parses a robots.txt body per RFC 9309, read as Google's parser reads it: groups of
 * user-agent lines followed by allow and disallow rules; comments, unknown keys and rules
 * outside any group are ignored; only the first PARSE_LIMIT_BYTES are read (a line cut
 * there is dropped). Beyond the RFC: a UTF-8 byte order mark opening the file, whole or
 * cut short, is skipped; a line without its colon (`disallow /x`) counts when it is a key
 * and a value apart; `Allow: /dir/index.html` (or `index.htm`) also allows `/dir/`.
 *
 * @example
 * parseRobots('User-agent: *\nDisallow: /private/\n').groups[0].rules[0].pattern // '/private/'
 */
export function parseRobots(body: string | Buffer): Robots {
	const bytes = typeof body === 'string' ? Buffer.from(body) : body;
	const truncated = bytes.length - skippedMark(bytes) > PARSE_LIMIT_BYTES;
	const text = parseableBytes(bytes).toString('utf8');
	const groups: RobotsGroup[] = [];
	let current: RobotsGroup | undefined;
	// A user-agent line right after another (or at the start of a group) joins the same group.
	let openingAgents = false;
	const lines = text.split(/\r\n|\r|\n/);
	lines.forEach((raw, index) => {
		const pair = keyAndValue(raw);
		if (!pair) return;
		const [key, value] = pair;
		if (key === 'user-agent') {
			if (!current || !openingAgents) {
				current = { agents: [], rules: [], line: index + 1 };
				groups.push(current);
				openingAgents = true;
			}
			current.agents.push(groupAgent(value));
			return;
		}
		if (key === 'allow' || key === 'disallow') {
			openingAgents = false;
			// Rules outside any group, and empty rules, match nothing.
			if (!current || value === '') return;
			const rule: RobotsRule = { allow: key === 'allow', pattern: normalisePath(value), written: value, line: index + 1 };
			current.rules.push(rule);
			const directory = rule.allow ? indexDirectory(rule.pattern) : undefined;
			if (directory !== undefined) current.rules.push({ ...rule, pattern: directory });
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

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** How many bytes of a UTF-8 byte order mark open the body: 0 to 3 (Google's parser skips a cut one too). */
function skippedMark(bytes: Buffer): number {
	let skipped = 0;
	while (skipped < UTF8_BOM.length && bytes[skipped] === UTF8_BOM[skipped]) skipped++;
	return skipped;
}

/**
 * The bytes that are parsed: without a byte order mark (or the start of one) at the
 * very beginning, and cut at PARSE_LIMIT_BYTES, whole lines only (a line cut there is
 * dropped). A mark anywhere else stays, and spoils its line.
 *
 * @example
 * parseableBytes(Buffer.from([0xef, 0xbb, 0x55])).toString() // 'U'
 */
export function parseableBytes(body: Buffer): Buffer {
	let bytes = body.subarray(skippedMark(body));
	if (bytes.length > PARSE_LIMIT_BYTES) {
		bytes = bytes.subarray(0, PARSE_LIMIT_BYTES);
		const end = bytes.lastIndexOf(0x0a);
		bytes = bytes.subarray(0, end === -1 ? 0 : end);
	}
	return bytes;
}

// ASCII whitespace only: String.prototype.trim would also take a byte order mark (U+FEFF)
// away, and a mark inside the file must spoil its line, as it does for Google's parser.
const EDGE_SPACE = /^[ \t\v\f]+|[ \t\v\f]+$/g;

/**
 * A line's key (lower-cased) and value, or undefined for a blank, comment or unreadable
 * line. `key: value` as the RFC has it; a line without a colon (`disallow /`) as Google
 * reads it: exactly two runs of non-blank characters, the key and the value.
 */
function keyAndValue(raw: string): [string, string] | undefined {
	const hash = raw.indexOf('#');
	const line = (hash === -1 ? raw : raw.slice(0, hash)).replace(EDGE_SPACE, '');
	const colon = line.indexOf(':');
	let key: string;
	let value: string;
	if (colon === -1) {
		const pair = /^([^ \t]+)[ \t]+([^ \t]+)$/.exec(line);
		if (!pair) return undefined;
		[, key, value] = pair as unknown as [string, string, string];
	} else {
		key = line.slice(0, colon).replace(EDGE_SPACE, '');
		value = line.slice(colon + 1).replace(EDGE_SPACE, '');
	}
	return key === '' ? undefined : [key.toLowerCase(), value];
}

/**
 * An allowed index page also allows the directory itself, `/dir/$`: Google's reading of
 * `/dir/index.html` and `/dir/index.htm` (a pattern whose last `/` starts `/index.htm`),
 * and, as issue 26 asks, `/dir/index.php`, the index page of PHP sites, which a server
 * serves at `/dir/` as it does the others. Undefined for any other pattern.
 */
function indexDirectory(pattern: string): string | undefined {
	const slash = pattern.lastIndexOf('/');
	if (slash === -1 || !(pattern.startsWith('/index.htm', slash) || pattern.startsWith('/index.php', slash))) return undefined;
	return `${pattern.slice(0, slash + 1)}$`;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
// ASCII that is neither reserved nor unreserved in RFC 3986, and that WHATWG's URL parser
// (and so a URL revisit is given) writes percent-encoded: written plain in a rule, it is
// compared encoded. Reserved characters (`/?#[]@!$&'()*+,;=` and `:`) are left as written.
const UNSAFE = /^[\x00-\x20\x7f"<>\\^`{|}]$/;

/**
 * A path (or a rule's pattern) in one canonical form, so that the two compare octet for
 * octet (RFC 9309 §2.2.2): characters outside ASCII are percent-encoded as UTF-8, and so
 * are ASCII characters that may not appear raw in a URL (space, `"`, `<`, `{`, `|`, a `%`
 * that starts no escape…); percent-encoded unreserved characters are decoded; other
 * escapes, reserved characters' among them, stay encoded, with upper-case hex.
 *
 * @example
 * normalisePath('/foo/bar/ツ') // '/foo/bar/%E3%83%84'
 * normalisePath('/foo/bar/%62%61%7a') // '/foo/bar/baz'
 * normalisePath('/a%2fb') // '/a%2Fb'
 */
export function normalisePath(path: string): string {
	let out = '';
	for (let i = 0; i < path.length; i++) {
		const char = path[i]!;
		if (char === '%' && /^[0-9A-Fa-f]{2}$/.test(path.slice(i + 1, i + 3))) {
			const hex = path.slice(i + 1, i + 3).toUpperCase();
			const decoded = String.fromCharCode(Number.parseInt(hex, 16));
			out += UNRESERVED.test(decoded) ? decoded : `%${hex}`;
			i += 2;
		} else if (char.charCodeAt(0) > 0x7f || UNSAFE.test(char) || char === '%') {
			const whole = String.fromCodePoint(path.codePointAt(i)!);
			// Buffer, not encodeURIComponent: a lone surrogate becomes U+FFFD instead of throwing.
			for (const byte of Buffer.from(whole, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
			i += whole.length - 1;
		} else {
			out += char;
		}
	}
	return out;
}
