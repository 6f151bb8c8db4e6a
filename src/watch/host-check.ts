import { isIPv4, isIPv6 } from 'node:net';
import os from 'node:os';
import type { ListenAddress } from '../config/values.js';

/** Which Host header values a listening server answers, and what it says to the others. */
export interface HostCheck {
	/** Whether a request's Host header names this server. */
	allows(host: string | undefined): boolean;
	/** The one line a refused request gets: which values are answered, and how to add one. */
	refusal: string;
}

/** What the machine is called, for a server listening on every interface. */
export interface MachineNames {
	addresses: string[];
	hostname: string;
}

const loopback = (host: string): boolean => host === '::1' || host === 'localhost' || /^(::ffff:)?127\./.test(host);
const unspecified = (host: string): boolean => host === '' || host === '0.0.0.0' || host === '::';
const shown = (name: string): string => (isIPv6(name) ? `[${name}]` : name);

/** This machine's interface addresses (without IPv6 scopes, which no Host header carries) and its hostname. */
export function machineNames(): MachineNames {
	const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((one) => one.address.toLowerCase()));
	return { addresses: [...new Set(addresses.filter((address) => isIPv4(address) || isIPv6(address)))], hostname: os.hostname().toLowerCase() };
}

/** A Host header as name (lower case, IPv6 bare, no trailing dot) and port (80 when it names none); undefined when it is not one. */
function parseHost(header: string): { name: string; port: number } | undefined {
	const match = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/i.exec(header.trim());
	if (!match) return undefined;
	const name = (match[1] ?? match[2]!).toLowerCase().replace(/\.$/, '');
	return { name, port: match[3] === undefined ? 80 : Number(match[3]) };
}

/**
 * The Host guard of `--listen`: a web page whose name an attacker points at 127.0.0.1
 * (DNS rebinding) reaches the server with its own name in Host, so only names that mean
 * this server are answered. Those are the address it listens on, with its port (and
 * `localhost` on loopback; this machine's addresses and hostname on every interface),
 * and the `--listen-host` names, with any port (a reverse proxy forwards its own).
 *
 * @example
 * hostCheck({ host: '127.0.0.1', port: 0 }, { host: '127.0.0.1', port: 9464 }, []).allows('localhost:9464') // true
 */
export function hostCheck(asked: ListenAddress, bound: ListenAddress, names: readonly string[], machine: () => MachineNames = machineNames): HostCheck {
	const own = new Set<string>();
	const add = (name: string): void => void own.add(name.toLowerCase().replace(/\.$/, ''));
	if (!unspecified(asked.host)) add(asked.host);
	if (unspecified(bound.host)) {
		const { addresses, hostname } = machine();
		for (const address of addresses) add(address);
		add(hostname);
		add('localhost');
	} else {
		add(bound.host);
		if (loopback(bound.host) || loopback(asked.host)) add('localhost');
	}
	const extra = new Set(names);
	const listed = [...own].map((name) => `${shown(name)}:${bound.port}`).concat([...extra].map(shown));
	return {
		allows: (header) => {
			const host = header === undefined ? undefined : parseHost(header);
			if (!host) return false;
			return extra.has(host.name) || (own.has(host.name) && host.port === bound.port);
		},
		refusal: `this server answers only requests whose Host is ${listed.join(', ')}; --listen-host NAME adds a name`,
	};
}
