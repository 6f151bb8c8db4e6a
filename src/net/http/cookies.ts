import { readFile } from 'node:fs/promises';
import { Cookie, CookieJar } from 'tough-cookie';
import { UsageError } from '../../base/errors/index.js';
import { writeFileAtomic } from '../../base/util/write-file-atomic.js';

/**
 * An empty jar, for a run that keeps the cookies its servers set (--cookie-jar without --cookies).
 *
 * @example
 * const jar = emptyJar();
 */
export function emptyJar(): CookieJar {
	return new CookieJar();
}

/**
 * Reads a Netscape cookies.txt (what curl's -c, wget and browser extensions write) into a
 * cookie jar that keeps RFC 6265's rules (tough-cookie): domain, path, secure, expiry.
 * A line's fields, tab-separated: domain, include subdomains (TRUE/FALSE), path, secure
 * (TRUE/FALSE), expiry (Unix seconds; 0 for a session cookie), name, value. `#HttpOnly_`
 * before the domain marks an HttpOnly cookie; other `#` lines are comments. Expired
 * cookies are left out.
 *
 * @example
 * const jar = await readCookieFile('cookies.txt');
 */
export async function readCookieFile(file: string, jar = new CookieJar(), now = Date.now()): Promise<CookieJar> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (error) {
		throw new UsageError(`--cookies ${file}: ${(error as Error).message}`);
	}
	let line = 0;
	for (const raw of text.split(/\r?\n/)) {
		line++;
		let entry = raw;
		let httpOnly = false;
		if (entry.startsWith('#HttpOnly_')) {
			httpOnly = true;
			entry = entry.slice('#HttpOnly_'.length);
		} else if (entry.startsWith('#') || entry.trim() === '') continue;
		const fields = entry.split('\t');
		if (fields.length < 7)
			throw new UsageError(
				`--cookies ${file} line ${line}: expected 7 tab-separated fields (domain, subdomains, path, secure, expiry, name, value), got ${fields.length}`,
			);
		const [domainField, subdomains, path, secureField, expiry, name, ...rest] = fields as [string, string, string, string, string, string, ...string[]];
		const seconds = Number(expiry);
		if (!Number.isFinite(seconds)) throw new UsageError(`--cookies ${file} line ${line}: the expiry ${JSON.stringify(expiry)} is not a number of seconds`);
		if (seconds > 0 && seconds * 1000 <= now) continue;
		const domain = domainField.replace(/^\./, '').toLowerCase();
		const secure = secureField.toUpperCase() === 'TRUE';
		const hostOnly = subdomains.toUpperCase() !== 'TRUE';
		const cookie = new Cookie({
			key: name,
			value: rest.join('\t'),
			path: path || '/',
			secure,
			httpOnly,
			expires: seconds > 0 ? new Date(seconds * 1000) : 'Infinity',
			// No domain attribute: a host-only cookie, for this host alone.
			...(hostOnly ? {} : { domain }),
		});
		try {
			await jar.setCookie(cookie, `${secure ? 'https' : 'http'}://${domain}${path.startsWith('/') ? path : '/'}`, { ignoreError: false });
		} catch (error) {
			throw new UsageError(`--cookies ${file} line ${line}: ${(error as Error).message}`);
		}
	}
	return jar;
}

/**
 * Writes a jar's cookies to `file` in the Netscape format, atomically (a reader sees the
 * old file or the new one). Session cookies get expiry 0, as curl writes them.
 */
export async function writeCookieFile(file: string, jar: CookieJar, now = Date.now()): Promise<void> {
	const cookies = (await jar.serialize()).cookies
		.map((json) => Cookie.fromJSON(json))
		.filter((cookie): cookie is Cookie => cookie !== undefined && cookie !== null);
	const lines = ['# Netscape HTTP Cookie File', '# Written by revisit (--cookie-jar). Keep it private: it may hold logins.', ''];
	for (const cookie of cookies) {
		if (!cookie.domain) continue;
		const hostOnly = cookie.hostOnly === true;
		// Max-Age wins over Expires (RFC 6265 5.3); a session cookie has neither.
		const time = cookie.expiryTime();
		// One a server expired (Max-Age=0, a past Expires) is not written back.
		if (time !== undefined && time <= now) continue;
		const expires = time !== undefined && Number.isFinite(time) ? Math.floor(time / 1000) : 0;
		lines.push(
			[
				`${cookie.httpOnly ? '#HttpOnly_' : ''}${hostOnly ? '' : '.'}${cookie.domain}`,
				hostOnly ? 'FALSE' : 'TRUE',
				cookie.path ?? '/',
				cookie.secure ? 'TRUE' : 'FALSE',
				String(expires),
				cookie.key,
				cookie.value,
			].join('\t'),
		);
	}
	await writeFileAtomic(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}

/** A cookie as a browser takes it (Playwright's `addCookies`): a host-only one by `url`, a domain one by `domain` and `path`. */
export interface BrowserCookieData {
	name: string;
	value: string;
	url?: string;
	domain?: string;
	path?: string;
	expires?: number;
	httpOnly?: boolean;
	secure?: boolean;
	sameSite?: 'Strict' | 'Lax' | 'None';
}

const SAME_SITE = { strict: 'Strict', lax: 'Lax', none: 'None' } as const;

/**
 * Every unexpired cookie of `jar`, as a browser takes it: the browser then sends each by
 * its own rules (domain, path, Secure, SameSite), as it would its own.
 *
 * @example
 * await context.addCookies(browserCookies(jar));
 */
export function browserCookies(jar: CookieJar, now = Date.now()): BrowserCookieData[] {
	const cookies: BrowserCookieData[] = [];
	for (const json of jar.serializeSync()?.cookies ?? []) {
		const cookie = Cookie.fromJSON(json);
		if (!cookie || !cookie.domain) continue;
		const expiry = cookie.expiryTime();
		if (expiry !== undefined && Number.isFinite(expiry) && expiry <= now) continue;
		const sameSite = SAME_SITE[String(cookie.sameSite ?? '').toLowerCase() as keyof typeof SAME_SITE];
		cookies.push({
			name: cookie.key,
			value: cookie.value,
			...(cookie.hostOnly
				? { url: `${cookie.secure ? 'https' : 'http'}://${cookie.domain}${cookie.path ?? '/'}` }
				: { domain: `.${cookie.domain}`, path: cookie.path ?? '/' }),
			...(expiry !== undefined && Number.isFinite(expiry) ? { expires: Math.floor(expiry / 1000) } : {}),
			httpOnly: cookie.httpOnly,
			secure: cookie.secure,
			...(sameSite ? { sameSite } : {}),
		});
	}
	return cookies;
}
