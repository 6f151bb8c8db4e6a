import dns from 'node:dns';
import net from 'node:net';
import { RevisitError } from '../../base/errors/index.js';

/** Loopback, link-local, private, CGNAT, unspecified and multicast ranges, v4 and v6. */
function privateRanges(): net.BlockList {
	const list = new net.BlockList();
	for (const [network, prefix] of [
		['0.0.0.0', 8],
		['10.0.0.0', 8],
		['100.64.0.0', 10],
		['127.0.0.0', 8],
		['169.254.0.0', 16],
		['172.16.0.0', 12],
		['192.0.0.0', 24],
		['192.168.0.0', 16],
		['198.18.0.0', 15],
		['224.0.0.0', 4],
		['240.0.0.0', 4],
	] as const)
		list.addSubnet(network, prefix, 'ipv4');
	for (const [network, prefix] of [
		['::', 128],
		['::1', 128],
		['fc00::', 7],
		['fe80::', 10],
		['ff00::', 8],
	] as const)
		list.addSubnet(network, prefix, 'ipv6');
	return list;
}

/**
 * Whether an IP address is in a range a sweep of untrusted URLs must not reach.
 * IPv4-mapped IPv6 addresses are judged as the IPv4 they carry.
 *
 * @example
 * isPrivateAddress('10.1.2.3') // true
 */
export function isPrivateAddress(address: string, ranges = privateRanges()): boolean {
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
	if (mapped) return ranges.check(mapped, 'ipv4');
	const family = net.isIP(address);
	if (family === 0) return false;
	return ranges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The error a refused address gives: a RevisitError whose code, EPRIVATE, the URL's verdict carries. */
export class PrivateAddressError extends RevisitError {
	override name = 'PrivateAddressError';
	constructor(host: string, address: string) {
		super('EPRIVATE', `${host === address ? address : `${host} resolves to ${address}, which`} is a private or loopback address (--deny-private)`);
	}
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` replacement that refuses private addresses after resolution, so a
 * public-looking hostname can't lead a sweep into the local network.
 *
 * @example
 * got.extend({ dnsLookup: denyPrivateLookup() })
 */
export function denyPrivateLookup(): typeof dns.lookup {
	const ranges = privateRanges();
	const lookup = (hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback): void => {
		const done = (typeof options === 'function' ? options : callback)!;
		const settings = typeof options === 'object' ? options : typeof options === 'number' ? { family: options } : {};
		dns.lookup(hostname, { ...settings, all: true }, (error, addresses) => {
			if (error) return done(error, '');
			const list = addresses as dns.LookupAddress[];
			const refused = list.find((entry) => isPrivateAddress(entry.address, ranges));
			if (refused) return done(Object.assign(new PrivateAddressError(hostname, refused.address), { errno: 0 }) as NodeJS.ErrnoException, '');
			if (settings.all) done(null, list);
			else done(null, list[0]!.address, list[0]!.family);
		});
	};
	return lookup as unknown as typeof dns.lookup;
}

/** Refuses a URL whose host is itself a private IP literal (no lookup happens for those). */
export function assertPublicHost(url: string): void {
	const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
	if (net.isIP(host) && isPrivateAddress(host)) throw new PrivateAddressError(host, host);
}
