import { StoreError } from '../../base/errors/index.js';
import { shownUrl } from '../../base/util/shown-url.js';

/**
 * Where a Redis store lives: parsed from `redis://[user:password@]host:port[/db][?prefix=NAME]`,
 * or `redis+cluster://[user:password@]host:port[?prefix=NAME][&node=host:port…]` for a Redis
 * Cluster (host:port and each `node` are seeds: the client discovers the rest).
 */
export interface RedisTarget {
	host: string;
	port: number;
	/** A Redis Cluster: `host:port` and `seeds` are some of its nodes. */
	cluster?: boolean;
	/** More cluster nodes to discover the topology from, should the first be down. */
	seeds?: Array<{ host: string; port: number }>;
	/** `rediss://`: connect with TLS. */
	tls: boolean;
	username?: string;
	password?: string;
	/** Logical database (SELECT), 0 unless the path names one. */
	db: number;
	/** Every key of the store starts with this; default `revisit:`. */
	prefix: string;
}

export const DEFAULT_PREFIX = 'revisit:';

/**
 * True when a store spec names a Redis server rather than a directory.
 *
 * @example
 * isRedisSpec('redis://127.0.0.1:6379') // true
 * isRedisSpec('.revisit') // false
 */
export function isRedisSpec(spec: string): boolean {
	return /^rediss?(?:\+cluster)?:\/\//i.test(spec);
}

/**
 * Parses a Redis store URL. A bad URL is a StoreError (STORE_OPEN_FAILED, exit 2) whose
 * message never repeats the password. The prefix may not contain `{` or `}`: the key
 * layout puts its own Redis Cluster hash tags after it (see redis-layout.ts).
 *
 * @example
 * parseRedisUrl('rediss://app:s3cret@cache.internal:6380/2?prefix=crawl:')
 * // { host: 'cache.internal', port: 6380, tls: true, username: 'app', password: 's3cret', db: 2, prefix: 'crawl:' }
 */
export function parseRedisUrl(spec: string): RedisTarget {
	let url: URL;
	try {
		url = new URL(spec);
	} catch {
		throw bad(spec, 'not a URL');
	}
	const scheme = /^(rediss?)(\+cluster)?:$/.exec(url.protocol);
	if (!scheme) throw bad(spec, 'the scheme must be redis://, rediss://, redis+cluster:// or rediss+cluster://');
	const tls = scheme[1] === 'rediss';
	const cluster = scheme[2] !== undefined;
	if (url.hostname === '') throw bad(spec, 'no host');
	const path = url.pathname.replace(/^\/+/, '');
	if (!/^\d*$/.test(path)) throw bad(spec, `the path must be a database number (got /${path})`);
	if (cluster && Number(path) > 0) throw bad(spec, 'a Redis Cluster has only database 0');
	if (url.hash !== '') throw bad(spec, 'a fragment means nothing here');
	for (const key of url.searchParams.keys()) {
		if (key !== 'prefix' && !(cluster && key === 'node'))
			throw bad(spec, `unknown parameter ${JSON.stringify(key)} (only prefix${cluster ? ' and node' : ''})`);
	}
	const prefix = url.searchParams.get('prefix') ?? DEFAULT_PREFIX;
	if (prefix === '') throw bad(spec, 'the prefix must not be empty');
	if (/[{}]/.test(prefix)) throw bad(spec, 'the prefix must not contain { or } (they mark Redis Cluster hash tags)');
	const target: RedisTarget = { ...hostPort(url), tls, db: path === '' ? 0 : Number(path), prefix };
	if (cluster) {
		target.cluster = true;
		target.seeds = url.searchParams.getAll('node').map((node) => {
			const seed = URL.canParse(`redis://${node}`) ? new URL(`redis://${node}`) : undefined;
			if (!seed || seed.hostname === '' || seed.pathname !== '' || seed.username !== '') throw bad(spec, `node=${node} is not host:port`);
			return hostPort(seed);
		});
	}
	if (url.username !== '') target.username = decodeURIComponent(url.username);
	if (url.password !== '') target.password = decodeURIComponent(url.password);
	return target;
}

function hostPort(url: URL): { host: string; port: number } {
	// WHATWG keeps IPv6 hosts in brackets; the socket wants them bare.
	return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port === '' ? 6379 : Number(url.port) };
}

/**
 * The store's name for messages: scheme, user, host, port, database and prefix, with
 * the password replaced by `***`, so credentials never reach a log.
 *
 * @example
 * describeRedis(parseRedisUrl('redis://app:s3cret@db:6379/2')) // 'redis://app:***@db:6379/2 (prefix revisit:)'
 */
export function describeRedis(target: RedisTarget): string {
	const user =
		target.username === undefined && target.password === undefined
			? ''
			: `${encodeURIComponent(target.username ?? '')}${target.password === undefined ? '' : ':***'}@`;
	const host = target.host.includes(':') ? `[${target.host}]` : target.host;
	return `${target.tls ? 'rediss' : 'redis'}${target.cluster ? '+cluster' : ''}://${user}${host}:${target.port}/${target.db} (prefix ${target.prefix})`;
}

function bad(spec: string, why: string): StoreError {
	return new StoreError(
		'STORE_OPEN_FAILED',
		`bad Redis store URL ${shownUrl(spec)}: ${why}; expected redis://[user:password@]host:port[/db][?prefix=NAME] or ` +
			`redis+cluster://[user:password@]host:port[?prefix=NAME][&node=host:port]`,
	);
}
