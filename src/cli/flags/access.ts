import { GROUP } from './groups.js';
import { flagRow, type ValuesOf } from '../../config/setting-row.js';
import { headersValue, proxyValue } from '../../config/settings.js';
import type { HeaderRule } from '../../net/http/headers.js';
import { proxyFromEnv, type ProxySettings } from '../../net/http/proxy.js';
import { flagsOf } from './setting.js';

/** What a run sends besides its own headers, and through where (sweep, fetch, crawl, watch): one row each. */
export const accessSettings = {
	header: flagRow({
		group: GROUP.politeness,
		doc:
			"Add a request header, 'Name: value' as curl takes it (repeatable). Host, If-None-Match, If-Modified-Since, " +
			"Accept-Encoding and Range are revisit's own",
		alias: 'H',
		type: 'string',
		parse: headersValue,
	}),
	cookies: flagRow({
		group: GROUP.politeness,
		doc: 'Send cookies from this Netscape cookies.txt (as curl, wget and browser extensions export it)',
		type: 'string',
	}),
	'cookie-jar': flagRow({
		group: GROUP.politeness,
		doc: 'When the run ends, write the cookies (those read and those the servers set) to this file, in the same format',
		type: 'string',
	}),
	proxy: flagRow({
		group: GROUP.politeness,
		doc:
			'Send through this proxy (http://[user:password@]host:port) instead of the one HTTP_PROXY, HTTPS_PROXY or ' +
			'ALL_PROXY names; NO_PROXY still applies. --no-proxy: ignore them all, go direct',
		type: 'string',
		requiresArg: false,
		parse: proxyValue,
	}),
};

/** Parsed access flags: headers, cookies, proxy (false for --no-proxy). */
export type AccessFlags = ValuesOf<typeof accessSettings>;

/** The flags of every command that sends requests, from their rows. */
export const accessFlagOptions = flagsOf(accessSettings);

/**
 * The access flags as run options: headers, cookie files, and the proxies, from --proxy,
 * else from `env` (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY), none with --no-proxy.
 */
export function accessFrom(
	flags: AccessFlags,
	env: Record<string, string | undefined>,
): { headers?: HeaderRule[]; proxy?: ProxySettings; cookies?: string; cookieJar?: string } {
	const proxy: ProxySettings | undefined =
		flags.proxy === false
			? undefined
			: flags.proxy !== undefined
				? { http: flags.proxy, https: flags.proxy, noProxy: proxyFromEnv(env).noProxy }
				: proxyFromEnv(env);
	return {
		...(flags.header && flags.header.length > 0 ? { headers: flags.header } : {}),
		...(proxy && (proxy.http !== undefined || proxy.https !== undefined) ? { proxy } : {}),
		...(flags.cookies !== undefined ? { cookies: flags.cookies } : {}),
		...(flags['cookie-jar'] !== undefined ? { cookieJar: flags['cookie-jar'] } : {}),
	};
}
