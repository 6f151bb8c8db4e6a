/**
 * The query (and fragment) parameters whose value is a secret, by name. A name is secret
 * when one of its words is in this list, or when its letters alone spell an entry
 * (`apikey`, `accesstoken`). A name's words are split at anything that is not a letter
 * and at camelCase, case not counting: `X-Amz-Signature`, `x-api-key`, `auth_token`,
 * `apiKey`, `%74oken` (percent-decoded first) all are. docs/10-notifications.md lists it.
 */
export const SECRET_PARAMETER_NAMES: readonly string[] = [
	'token',
	'key',
	'secret',
	'password',
	'passwd',
	'pass',
	'pwd',
	'passphrase',
	'auth',
	'authorization',
	'sig',
	'signature',
	'access_token',
	'api_key',
	'apikey',
	'client_secret',
	'refresh_token',
	'session',
	'sessionid',
	'credential',
	'credentials',
];

/** What stands in for a secret wherever a URL is shown. */
export const MASK = '***';

const SECRET_LETTERS = new Set(SECRET_PARAMETER_NAMES.map((name) => name.replace(/[^a-z]/g, '')));

const decode = (text: string): string => {
	try {
		return decodeURIComponent(text.replace(/\+/g, '%20'));
	} catch {
		return text;
	}
};

/** `X-Amz-Signature` → `['x', 'amz', 'signature']`; `APIKey` → `['api', 'key']`. */
const wordsOf = (name: string): string[] =>
	name
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z]+/)
		.filter(Boolean);

/**
 * Whether a query parameter's name (as written in a URL, percent-encoded or not) says its
 * value is a secret: see SECRET_PARAMETER_NAMES.
 *
 * @example
 * isSecretParameter('X-Amz-Signature') // true
 * isSecretParameter('keyword') // false
 */
export function isSecretParameter(name: string): boolean {
	const plain = decode(name);
	return wordsOf(plain).some((word) => SECRET_LETTERS.has(word)) || SECRET_LETTERS.has(plain.toLowerCase().replace(/[^a-z]/g, ''));
}

/** Parts of a URL that its scheme makes a secret, beyond the password and the parameters every URL hides. */
export interface HiddenParts {
	/** The user name (`matrix://TOKEN@HOST`). */
	user?: boolean | undefined;
	/** The host with its port (`tgram://BOT_TOKEN/…`, `slack://TOKEN_A/…`). */
	host?: boolean | undefined;
	/** The first so many path segments (`discord://ID/TOKEN`: 1 after the host). */
	path?: number | undefined;
}

/** A URL as it may be shown, and the values it hides (as written, and decoded). */
export interface MaskedUrl {
	shown: string;
	secrets: string[];
}

/**
 * Where the authority ends: at the first `/` or `?`, or at a `#` that no `@` follows
 * before then (a `#` before the `@` is in the password, as apprise reads it).
 */
function authorityEnd(rest: string): number {
	const slash = rest.search(/[/?]/);
	const end = slash < 0 ? rest.length : slash;
	const hash = rest.indexOf('#');
	if (hash >= 0 && hash < end && rest.slice(hash, end).indexOf('@') < 0) return hash;
	return end;
}

/**
 * A URL as it may be shown, its secrets masked by where they stand, never by their text:
 * the userinfo's password (`user:***@`), the value of every query or fragment parameter
 * whose name says it is a secret (SECRET_PARAMETER_NAMES) and of every `+Header` (the
 * notify URLs' extra headers), each whole, and the parts `hidden` names. The rest stays
 * as written. A secret value runs to the next `&`, so a `#` or `?` written in it is
 * masked with it. Text without `scheme://` is read as from its authority (`user:pw@host:port`).
 *
 * @example
 * maskUrl('mailto://me:x@smtp.example.org?to=a@example.org&pass=y')
 * // { shown: 'mailto://me:***@smtp.example.org?to=a@example.org&pass=***', secrets: ['x', 'x', 'y', 'y'] }
 */
export function maskUrl(text: string, hidden: HiddenParts = {}): MaskedUrl {
	const secrets: string[] = [];
	const mask = (part: string): string => {
		if (!part) return part;
		secrets.push(part, decode(part));
		return MASK;
	};
	const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
	const rest = text.slice(scheme.length);
	const end = authorityEnd(rest);
	const authority = rest.slice(0, end);
	const at = authority.lastIndexOf('@');
	let shown = scheme;
	if (at >= 0) {
		const userinfo = authority.slice(0, at);
		const colon = userinfo.indexOf(':');
		const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
		shown += hidden.user ? mask(user) : user;
		if (colon >= 0) shown += `:${mask(userinfo.slice(colon + 1))}`;
		shown += '@';
	}
	const host = authority.slice(at + 1);
	shown += hidden.host ? mask(host) : host;
	const after = rest.slice(end);
	const pathEnd = after.search(/[?#]/);
	const path = pathEnd < 0 ? after : after.slice(0, pathEnd);
	let left = hidden.path ?? 0;
	shown += path
		.split('/')
		.map((segment) => (segment && left > 0 ? (left--, mask(segment)) : segment))
		.join('/');
	const tail = pathEnd < 0 ? '' : after.slice(pathEnd);
	// Each step starts at a `?`, `#` or `&`, followed by a parameter or a bare word (`#channel`).
	for (let i = 0; i < tail.length; ) {
		shown += tail[i];
		const start = i + 1;
		const next = tail.slice(start).search(/[?#&]/);
		const stop = next < 0 ? tail.length : start + next;
		const piece = tail.slice(start, stop);
		const eq = piece.indexOf('=');
		const name = piece.slice(0, eq);
		if (eq < 0 || !(name.startsWith('+') || decode(name).startsWith('+') || isSecretParameter(name))) {
			shown += piece;
			i = stop;
			continue;
		}
		const amp = tail.indexOf('&', start + eq + 1);
		const valueEnd = amp < 0 ? tail.length : amp;
		shown += `${name}=${mask(tail.slice(start + eq + 1, valueEnd))}`;
		i = valueEnd;
	}
	return { shown, secrets };
}

/**
 * A URL as it may be shown (maskUrl's `shown`): on stderr, `/healthz`, `/metrics`, the
 * outbox and `revisit stats`.
 *
 * @example
 * shownUrl('json://127.0.0.1:8080/hook?token=s3cret&+X-Key=abc&v=2') // 'json://127.0.0.1:8080/hook?token=***&+X-Key=***&v=2'
 * shownUrl('redis://app:s3cret@db:6379/0') // 'redis://app:***@db:6379/0'
 */
export function shownUrl(text: string, hidden?: HiddenParts): string {
	return maskUrl(text, hidden).shown;
}
