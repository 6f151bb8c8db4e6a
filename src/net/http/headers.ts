import { UsageError } from '../../base/errors/index.js';

/**
 * One request header a user added (`-H`, a pipeline file's `headers`): plain data, so that
 * worker threads and fleet workers build the same client. `match` scopes it: absent, every
 * request; an origin (`https://api.example.org`), a host (`example.org`, `example.org:8080`),
 * or else a regular expression over the URL. `secret` marks a value never to be shown.
 */
export interface HeaderRule {
	name: string;
	value: string;
	match?: string | undefined;
	secret?: boolean | undefined;
}

/** Headers revisit sets itself: a user's value would break the conditional requests or the hashes. */
export const OWN_HEADERS = new Set(['host', 'if-none-match', 'if-modified-since', 'accept-encoding', 'range']);

const ALWAYS_SECRET = new Set(['authorization', 'cookie', 'proxy-authorization', 'set-cookie']);
const SECRET_NAME = /token|key|secret|passw|session|auth/i;

/**
 * Whether a header's value must not be shown (WARC request records, diagnostics):
 * Authorization, Cookie, Proxy-Authorization, a name that says token, key, secret,
 * password, session or auth, or one of `extra` (values taken from the environment).
 *
 * @example
 * isSecretHeader('X-Api-Key') // true
 */
export function isSecretHeader(name: string, extra?: readonly string[]): boolean {
	const lower = name.toLowerCase();
	return ALWAYS_SECRET.has(lower) || SECRET_NAME.test(lower) || (extra?.includes(lower) ?? false);
}

/** What a secret header's value is replaced with wherever it is shown. */
export const REDACTED = '[redacted]';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Checks one header for `where` (the flag or config path a message names): a token name,
 * a value without control characters, and none of revisit's own headers.
 */
export function checkHeader(name: string, value: string, where: string): { name: string; value: string } {
	if (!TOKEN.test(name)) throw new UsageError(`${where}: ${JSON.stringify(name)} is not a header name`);
	if (OWN_HEADERS.has(name.toLowerCase())) {
		throw new UsageError(
			`${where}: revisit sets ${name} itself (Host, If-None-Match, If-Modified-Since, Accept-Encoding and Range are its own; ` +
				`Accept-Encoding has --accept-encoding)`,
		);
	}
	if (/[\0-\x08\x0a-\x1f\x7f]/.test(value)) throw new UsageError(`${where}: the value of ${name} holds a control character`);
	return { name, value: value.trim() };
}

/**
 * A header in curl's form, `Name: value`, checked.
 *
 * @example
 * parseHeaderLine('Accept-Language: fr', '--header') // { name: 'Accept-Language', value: 'fr' }
 */
export function parseHeaderLine(line: string, where = '--header'): HeaderRule {
	const colon = line.indexOf(':');
	if (colon <= 0) throw new UsageError(`${where} takes 'Name: value' (got ${JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line)})`);
	return checkHeader(line.slice(0, colon).trim(), line.slice(colon + 1), `${where} ${line.slice(0, colon).trim()}`);
}

/** A rule's scope as a test on a URL. */
function matcher(match: string | undefined): (url: URL) => boolean {
	if (match === undefined) return () => true;
	if (/^https?:\/\/[^/?#]+\/?$/i.test(match)) {
		const origin = new URL(match).origin;
		return (url) => url.origin === origin;
	}
	if (/^[a-z0-9.-]+(:\d+)?$/i.test(match)) {
		const host = match.toLowerCase();
		return (url) => url.host === host || url.hostname === host;
	}
	const pattern = new RegExp(match);
	return (url) => pattern.test(url.href);
}

/** Header rules compiled once per client. */
export interface CompiledHeaders {
	/** The headers that apply to `url`, by lower-case name; a later rule of a name wins. */
	for(url: URL, sameOriginAsFirst: boolean): Record<string, string>;
	/** Names (lower case) of the rules' headers, so that a hop can drop those of the last. */
	names: readonly string[];
	/** Names whose values are secret beyond the fixed list (taken from the environment). */
	secretNames: readonly string[];
}

/**
 * Compiles header rules. A secret header (see `isSecretHeader`) goes only to the origin of
 * the URL asked for: never along a redirect to another origin.
 */
export function compileHeaders(rules: readonly HeaderRule[]): CompiledHeaders {
	const compiled = rules.map((rule) => ({ name: rule.name.toLowerCase(), value: rule.value, test: matcher(rule.match) }));
	const secretNames = [...new Set(rules.filter((rule) => rule.secret).map((rule) => rule.name.toLowerCase()))];
	return {
		names: [...new Set(compiled.map((rule) => rule.name))],
		secretNames,
		for(url, sameOriginAsFirst) {
			const headers: Record<string, string> = {};
			for (const rule of compiled) {
				if (!sameOriginAsFirst && isSecretHeader(rule.name, secretNames)) continue;
				if (rule.test(url)) headers[rule.name] = rule.value;
			}
			return headers;
		},
	};
}
