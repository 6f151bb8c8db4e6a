/**
 * An apprise-style URL in parts. Not WHATWG's URL: apprise URLs put `#channel` in the
 * path (a fragment to WHATWG) and a Telegram bot token's colon where a port would be.
 */
export interface NotifyUrl {
	/** Lower case, without `://`: `mailtos`. */
	scheme: string;
	user?: string | undefined;
	password?: string | undefined;
	/** As written, port included when it is not all digits (`123456:ABC-DEF`). */
	host: string;
	port?: number | undefined;
	/** The path's non-empty segments, decoded: `['#general']`. */
	path: string[];
	/** Query parameters, decoded; the last of a repeated key wins. */
	query: Record<string, string>;
	/** The text as given. */
	raw: string;
}

const decode = (text: string): string => {
	try {
		return decodeURIComponent(text.replace(/\+/g, '%20'));
	} catch {
		return text;
	}
};

const decodePath = (text: string): string => {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
};

/**
 * Splits `scheme://user:pass@host:port/a/b?k=v` into its parts, or undefined when the
 * text has no `scheme://`.
 *
 * @example
 * splitNotifyUrl('tgram://123:ABC/456') // { scheme: 'tgram', host: '123:ABC', path: ['456'], ... }
 */
export function splitNotifyUrl(raw: string): NotifyUrl | undefined {
	const head = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/is.exec(raw.trim());
	if (!head) return undefined;
	const scheme = head[1]!.toLowerCase();
	let rest = head[2]!;
	const query: Record<string, string> = {};
	const mark = rest.indexOf('?');
	if (mark >= 0) {
		for (const pair of rest.slice(mark + 1).split('&')) {
			if (!pair) continue;
			const eq = pair.indexOf('=');
			// `+` starts a header name in apprise (`+X-Token=abc`): kept, not read as a space.
			const key = eq < 0 ? pair : pair.slice(0, eq);
			query[key.startsWith('+') ? `+${decode(key.slice(1))}` : decode(key).toLowerCase()] = eq < 0 ? '' : decode(pair.slice(eq + 1));
		}
		rest = rest.slice(0, mark);
	}
	const slash = rest.indexOf('/');
	const authority = slash < 0 ? rest : rest.slice(0, slash);
	const path = (slash < 0 ? '' : rest.slice(slash + 1)).split('/').filter(Boolean).map(decodePath);
	const at = authority.lastIndexOf('@');
	const userinfo = at < 0 ? undefined : authority.slice(0, at);
	let host = at < 0 ? authority : authority.slice(at + 1);
	let port: number | undefined;
	const portMatch = /^(.*):(\d{1,5})$/.exec(host);
	if (portMatch && !portMatch[1]!.includes(':')) {
		host = portMatch[1]!;
		port = Number(portMatch[2]);
	}
	const colon = userinfo === undefined ? -1 : userinfo.indexOf(':');
	const user = userinfo === undefined ? undefined : decodePath(colon < 0 ? userinfo : userinfo.slice(0, colon));
	const password = userinfo === undefined || colon < 0 ? undefined : decodePath(userinfo.slice(colon + 1));
	return { scheme, user: user || undefined, password: password || undefined, host: decodePath(host), port, path, query, raw };
}

/**
 * The text with each secret replaced by `***`, longest first, as written and as
 * percent-encoded, so that a secret cannot reach a message or a log: for what a service
 * or apprise answered, whose parts revisit cannot tell apart. A URL is masked by where its
 * secrets stand instead (base/util/shown-url.ts), never by their text.
 *
 * @example
 * hide('mailto://me:s3cret@smtp.example', ['s3cret']) // 'mailto://me:***@smtp.example'
 */
export function hide(text: string, secrets: readonly string[]): string {
	const forms = new Set<string>();
	for (const secret of secrets) {
		if (!secret) continue;
		forms.add(secret);
		forms.add(encodeURIComponent(secret));
		forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
	}
	let out = text;
	for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('***');
	return out;
}
