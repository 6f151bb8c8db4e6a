import { GROUP, type FlagsFor } from './groups.js';
import { accessSettings } from '../../config/settings.js';
import type { HeaderRule } from '../../net/http/headers.js';
import { proxyFromEnv, type ProxySettings } from '../../net/http/proxy.js';
import { flagOf } from './setting.js';

/** Parsed access flags: headers, cookies, proxy (false for --no-proxy). */
export interface AccessFlags {
	header?: HeaderRule[];
	cookies?: string;
	'cookie-jar'?: string;
	proxy?: string | false;
}

/** The flags of every command that sends requests (sweep, fetch, crawl): what to send, and through where. */
export const accessFlagOptions: FlagsFor<AccessFlags> = {
	header: {
		group: GROUP.politeness,
		...flagOf(accessSettings.header),
		alias: 'H',
		type: 'string',
		requiresArg: true,
		describe:
			"Add a request header, 'Name: value' as curl takes it (repeatable). Host, If-None-Match, If-Modified-Since, Accept-Encoding and Range are revisit's own",
	},
	cookies: {
		group: GROUP.politeness,
		type: 'string',
		requiresArg: true,
		describe: 'Send cookies from this Netscape cookies.txt (as curl, wget and browser extensions export it)',
	},
	'cookie-jar': {
		group: GROUP.politeness,
		type: 'string',
		requiresArg: true,
		describe: 'When the run ends, write the cookies (those read and those the servers set) to this file, in the same format',
	},
	proxy: {
		group: GROUP.politeness,
		...flagOf(accessSettings.proxy),
		type: 'string',
		describe:
			'Send through this proxy (http://[user:password@]host:port) instead of the one HTTP_PROXY, ' +
			'HTTPS_PROXY or ALL_PROXY names; NO_PROXY still applies. --no-proxy: ignore them all, go direct',
	},
};

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
