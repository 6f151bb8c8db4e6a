import { BlockList, isIP } from 'node:net';
import { UsageError } from '../../base/errors/index.js';
import { shownUrl } from '../../base/util/shown-url.js';

/**
 * Which proxy each request takes, as plain data: the proxy for http:// URLs, the one for
 * https:// URLs, and the hosts that go direct (curl's NO_PROXY form). Nothing set: direct.
 */
export interface ProxySettings {
	http?: string | undefined;
	https?: string | undefined;
	noProxy?: string | undefined;
}

const pick = (env: Record<string, string | undefined>, name: string): string | undefined => {
	const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
	return value === undefined || value.trim() === '' ? undefined : value.trim();
};

/**
 * The proxies the environment names, read as curl reads them: `http_proxy`, `https_proxy`,
 * `all_proxy` (for a scheme with none of its own) and `no_proxy`, lower case first, then
 * upper case. Unlike curl, `HTTP_PROXY` in upper case counts too: revisit is never a CGI
 * program, where a request's `Proxy:` header could set it.
 *
 * @example
 * proxyFromEnv({ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'localhost' }) // { https: 'http://proxy:3128', noProxy: 'localhost' }
 */
export function proxyFromEnv(env: Record<string, string | undefined>): ProxySettings {
	const all = pick(env, 'all_proxy');
	const settings: ProxySettings = {};
	const http = pick(env, 'http_proxy') ?? all;
	const https = pick(env, 'https_proxy') ?? all;
	const noProxy = pick(env, 'no_proxy');
	if (http !== undefined) settings.http = checkProxyUrl(http, (env['http_proxy'] ?? env['HTTP_PROXY']) ? 'HTTP_PROXY' : 'ALL_PROXY');
	if (https !== undefined) settings.https = checkProxyUrl(https, (env['https_proxy'] ?? env['HTTPS_PROXY']) ? 'HTTPS_PROXY' : 'ALL_PROXY');
	if (noProxy !== undefined) settings.noProxy = noProxy;
	return settings;
}

/**
 * A proxy URL, checked: http:// or https://, or a bare `host:port` (taken as http://, as
 * curl does). Its credentials stay in it and are never shown (see `shownUrl`).
 */
export function checkProxyUrl(value: string, where: string): string {
	const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new UsageError(`${where}: ${JSON.stringify(shownUrl(value))} is not a proxy URL (http://[user:password@]host:port)`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		throw new UsageError(`${where}: ${url.protocol.slice(0, -1)} proxies are not supported; use an http:// or https:// proxy`);
	return url.href;
}

/**
 * A test of NO_PROXY, as curl reads it: `*` is every host; otherwise comma- (or space-)
 * separated names, each matching itself and its subdomains (a leading dot is optional),
 * with an optional `:port`, or IP addresses and CIDR ranges.
 */
export function noProxyTest(list: string | undefined): (url: URL) => boolean {
	if (list === undefined) return () => false;
	const entries = list
		.split(/[\s,]+/)
		.map((entry) => entry.trim().toLowerCase())
		.filter(Boolean);
	if (entries.includes('*')) return () => true;
	const blocks = new BlockList();
	const names: { host: string; port?: string | undefined }[] = [];
	for (const entry of entries) {
		const [address, bits] = entry.split('/');
		const family = isIP(address ?? '');
		if (family !== 0 && bits !== undefined) blocks.addSubnet(address!, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
		else if (family !== 0) blocks.addAddress(address!, family === 6 ? 'ipv6' : 'ipv4');
		else {
			const bracket = entry.match(/^\[([^\]]+)\](?::(\d+))?$/);
			if (bracket) {
				blocks.addAddress(bracket[1]!, 'ipv6');
				continue;
			}
			const [host, port] = entry.split(':');
			names.push({ host: host!.replace(/^\*?\./, ''), port });
		}
	}
	return (url) => {
		const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
		const family = isIP(hostname);
		if (family !== 0 && blocks.check(hostname, family === 6 ? 'ipv6' : 'ipv4')) return true;
		const port = url.port || (url.protocol === 'https:' ? '443' : '80');
		return names.some((name) => (hostname === name.host || hostname.endsWith(`.${name.host}`)) && (name.port === undefined || name.port === port));
	};
}

/**
 * Which proxy a URL takes, or undefined for none.
 *
 * @example
 * const choose = proxyChooser({ http: 'http://proxy:3128', noProxy: 'localhost' });
 * choose(new URL('http://localhost/')) // undefined
 */
export function proxyChooser(settings: ProxySettings | undefined): (url: URL) => URL | undefined {
	if (!settings || (settings.http === undefined && settings.https === undefined)) return () => undefined;
	const http = settings.http === undefined ? undefined : new URL(settings.http);
	const https = settings.https === undefined ? undefined : new URL(settings.https);
	const direct = noProxyTest(settings.noProxy);
	return (url) => {
		const proxy = url.protocol === 'https:' ? https : http;
		return proxy === undefined || direct(url) ? undefined : proxy;
	};
}
