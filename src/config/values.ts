import { isIPv6 } from 'node:net';
import { compileCondition } from '../domain/condition/compile.js';
import { selectorProblem } from '../domain/content/rules.js';
import { UsageError } from '../base/errors/index.js';
import { parseDuration } from '../base/util/duration.js';
import { integerValue } from './integer-value.js';

// Checks of one setting's value, shared by the CLI (as yargs `coerce`) and pipeline files
// (`config/settings.ts`), so that a value one rejects the other rejects too. A bad value
// names its flag and is a UsageError (exit 2); a pipeline file's message drops the flag.

// integerValue lives apart so that a command that needs only it (log) loads no condition
// compiler or selector engine with it: bin/revisit.js's quick bundle for log and diff.
export { integerValue };

export const numberValue =
	(flag: string) =>
	(value: unknown): number | undefined => {
		if (value === undefined) return undefined;
		const number = Number(value);
		if (!Number.isFinite(number) || number <= 0 || String(value).trim() === '') {
			throw new UsageError(`--${flag} must be a number > 0 (got ${JSON.stringify(value)})`);
		}
		return number;
	};

export const headerValue =
	(flag: string) =>
	(value: unknown): string => {
		const text = String(value);
		if (!/^[\x20-\x7e]+$/.test(text) || text.trim() === '') {
			throw new UsageError(`--${flag} must be printable ASCII (got ${JSON.stringify(value)})`);
		}
		return text.trim();
	};

export const rateValue =
	(flag: string) =>
	(value: unknown): number => {
		const number = Number(value);
		if (!Number.isFinite(number) || number < 0 || number > 1 || String(value).trim() === '') {
			throw new UsageError(`--${flag} must be a fraction from 0 to 1 (got ${JSON.stringify(value)})`);
		}
		return number;
	};

export const durationValue =
	(flag: string) =>
	(value: unknown): number | undefined => {
		if (value === undefined) return undefined;
		const ms = parseDuration(String(value));
		if (ms === undefined) throw new UsageError(`--${flag} must be a duration such as 30m, 6h or 2d (got ${JSON.stringify(value)})`);
		return ms;
	};

/** A duration such as 15m, or `off` (0); in ms. */
export const durationOrOffValue =
	(flag: string) =>
	(value: unknown): number => {
		if (value === 0 || String(value).trim().toLowerCase() === 'off') return 0;
		const ms = parseDuration(String(value));
		if (ms === undefined) throw new UsageError(`--${flag} must be a duration such as 30s, 15m or 1h, or off (got ${JSON.stringify(value)})`);
		return ms;
	};

/** A duration (30s, 1m), or a bare number of seconds; in ms. */
export const secondsValue =
	(flag: string) =>
	(value: unknown): number => {
		const text = String(value).trim();
		const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : parseDuration(text);
		if (ms === undefined || !Number.isFinite(ms) || ms < 0)
			throw new UsageError(`--${flag} must be a number of seconds or a duration such as 30s or 2m (got ${JSON.stringify(value)})`);
		return ms;
	};

/** A duration (30s, 1m), or a bare number of seconds, above zero; in ms. */
export const positiveSecondsValue =
	(flag: string) =>
	(value: unknown): number => {
		const ms = secondsValue(flag)(value);
		if (ms <= 0) throw new UsageError(`--${flag} must be above 0 (got ${JSON.stringify(value)})`);
		return ms;
	};

/** `obey` or `ignore`: whether robots.txt is obeyed. */
export const robotsValue = (value: unknown): 'obey' | 'ignore' => {
	if (value === 'obey' || value === 'ignore') return value;
	throw new UsageError(`--robots must be obey or ignore (got ${JSON.stringify(value)})`);
};

/**
 * `--when EXPR`: a condition a change must meet to be reported, checked by compiling it
 * (a syntax error names its column, an unknown name lists the known ones).
 *
 * @example
 * conditionValue('price < 40') // 'price < 40'
 */
export const conditionValue = (value: unknown): string => {
	const expression = String(Array.isArray(value) ? value[value.length - 1] : value);
	compileCondition(expression, '--when');
	return expression;
};

/** `--diff-of`: what a report diffs of an HTML page without a content rule. */
/** `--render`: never, auto or always. */
export const renderValue = (value: unknown): 'never' | 'auto' | 'always' => {
	if (value === 'never' || value === 'auto' || value === 'always') return value;
	throw new UsageError(`--render must be never, auto or always (got ${JSON.stringify(value)})`);
};

export const diffOfValue = (value: unknown): 'visible' | 'source' => {
	if (value === 'visible' || value === 'source') return value;
	throw new UsageError(`--diff-of must be visible or source (got ${JSON.stringify(value)})`);
};

/**
 * The crawler's name robots.txt groups are matched against: any name (`MJ12bot`, `Foo Bar`),
 * not empty and without control characters. It is compared whole (net/robots/agent.ts), so a
 * name beyond letters, `_` and `-` gets the `*` groups only, as Google's matcher gives it.
 */
export const robotsAgentValue =
	(flag: string) =>
	(value: unknown): string | undefined => {
		if (value === undefined) return undefined;
		const text = String(value).trim();
		if (text === '' || /[\x00-\x1f\x7f]/.test(text)) throw new UsageError(`--${flag} must be a crawler's name, such as mybot (got ${JSON.stringify(value)})`);
		return text;
	};

/** A duration, or `off` (0): how often a URL's body must be confirmed by a full download. */
export const verifyValue = (value: unknown): number => {
	if (value === 'off' || value === '0' || value === 0) return 0;
	const ms = parseDuration(String(value));
	if (ms === undefined) throw new UsageError(`--verify-every must be a duration such as 30d or 12h, or off (got ${JSON.stringify(value)})`);
	return ms;
};

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1e3, kb: 1e3, kib: 1024, m: 1e6, mb: 1e6, mib: 1024 ** 2, g: 1e9, gb: 1e9, gib: 1024 ** 3 };

/** A size in bytes, with an optional unit (500000, 512KiB, 10MiB, 1GB). */
/**
 * A size or `off` (0), for caps that can be switched off.
 *
 * @example
 * sizeOrOffValue('keep-text')('off') // 0
 */
/**
 * A count from 1, or 0 for `off`.
 *
 * @example
 * countOrOffValue('keep-versions')('off') // 0
 */
export const countOrOffValue =
	(flag: string) =>
	(value: unknown): number =>
		value === 0 || value === '0' || String(value).trim().toLowerCase() === 'off' ? 0 : integerValue(flag, 1)(value);

export const sizeOrOffValue =
	(flag: string) =>
	(value: unknown): number =>
		value === 0 || value === '0' || String(value).trim().toLowerCase() === 'off' ? 0 : sizeValue(flag)(value);

export const sizeValue =
	(flag: string) =>
	(value: unknown): number => {
		const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(String(value));
		const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? 'x'];
		const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : 0;
		if (bytes < 1) throw new UsageError(`--${flag} must be a size such as 500000, 512KiB or 10MiB (got ${JSON.stringify(value)})`);
		return bytes;
	};

/**
 * A moment, for `--now`: ISO 8601 (2026-01-31T12:00:00Z) or epoch milliseconds; in epoch ms.
 *
 * @example
 * timeValue('now')('1700000000000') // 1700000000000
 */
export const timeValue =
	(flag: string) =>
	(value: unknown): number | undefined => {
		if (value === undefined) return undefined;
		const text = String(value).trim();
		const ms = /^\d+$/.test(text) ? Number(text) : /^\d{4}-\d\d/.test(text) ? Date.parse(text) : Number.NaN;
		if (!Number.isSafeInteger(ms))
			throw new UsageError(`--${flag} must be a time in ISO 8601 (2026-01-31T12:00:00Z) or epoch milliseconds (got ${JSON.stringify(value)})`);
		return ms;
	};

/** CSS selectors (`--select`, `--exclude`, one or repeated), each checked as css-select reads it; the whole message, no --help hint. */
export const selectorsValue =
	(flag: string) =>
	(value: unknown): string[] => {
		const selectors = value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
		for (const selector of selectors) {
			const problem = selectorProblem(selector);
			if (problem !== undefined) throw new UsageError(`--${flag} ${JSON.stringify(selector)} is not a CSS selector: ${problem}`, { help: false });
		}
		return selectors;
	};

const PER: Record<string, number> = { s: 86_400, sec: 86_400, second: 86_400, m: 1440, min: 1440, minute: 1440, h: 24, hour: 24, d: 1, day: 1 };

/**
 * A rate of checks with its unit (`20/s`, `300/min`, `5000/h`, `100000/d`), in checks a day.
 *
 * @example
 * checksRateValue('rate')('5000/h') // 120000
 */
export const checksRateValue =
	(flag: string) =>
	(value: unknown): number => {
		const match = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([a-z]+)\s*$/i.exec(String(value));
		const per = match ? PER[match[2]!.toLowerCase()] : undefined;
		const perDay = match && per !== undefined ? Number(match[1]) * per : Number.NaN;
		if (!(perDay > 0) || !Number.isFinite(perDay))
			throw new UsageError(
				`--${flag} must be a number of checks per second, minute, hour or day, such as 20/s, 5000/h or 100000/d (got ${JSON.stringify(value)})`,
			);
		return perDay;
	};

/**
 * When a watch stops: a time (as `timeValue` reads it), or a duration (`30d`) after it starts, on the schedule's clock.
 *
 * @example
 * untilValue('until')('2d') // { afterMs: 172800000 }
 */
export const untilValue =
	(flag: string) =>
	(value: unknown): { at: number } | { afterMs: number } | undefined => {
		if (value === undefined) return undefined;
		const text = String(value).trim();
		const after = /^\d+(\.\d+)?[a-z]+$/i.test(text) ? parseDuration(text) : undefined;
		if (after !== undefined) return { afterMs: after };
		const at = /^\d+$/.test(text) ? Number(text) : /^\d{4}-\d\d/.test(text) ? Date.parse(text) : Number.NaN;
		if (!Number.isSafeInteger(at))
			throw new UsageError(
				`--${flag} must be a time in ISO 8601 or epoch milliseconds, or a duration from the start such as 12h or 30d (got ${JSON.stringify(value)})`,
			);
		return { at };
	};

/** Where a server listens. An empty host is every interface (`:9464`). */
export interface ListenAddress {
	host: string;
	port: number;
}

/**
 * HOST:PORT to listen on: `127.0.0.1:9464`, `:9464` (every interface), `[::1]:9464`, or
 * a host name; port 0 asks the system for a free one.
 *
 * @example
 * listenValue('listen')('[::1]:9464') // { host: '::1', port: 9464 }
 */
export const listenValue =
	(flag: string) =>
	(value: unknown): ListenAddress => {
		const text = String(value);
		const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
		const port = match ? Number(match[3]) : Number.NaN;
		const bad = (why: string): UsageError =>
			new UsageError(`--${flag} needs HOST:PORT, such as 127.0.0.1:9464, :9464 (every interface) or [::1]:9464: ${why} (got ${JSON.stringify(text)})`);
		if (!match)
			throw bad(
				/^\d+$/.test(text.trim())
					? 'a port alone needs a colon before it'
					: text.split(':').length > 2
						? 'an IPv6 address goes in brackets'
						: 'no :PORT at the end',
			);
		if (match[1] !== undefined && !isIPv6(match[1])) throw bad(`${match[1]} in brackets is not an IPv6 address`);
		if (port > 65_535) throw bad('the port is above 65535');
		return { host: match[1] ?? match[2]!, port };
	};

/**
 * `--listen-host NAME` (one or repeated): more names the listening server answers to in
 * a request's Host header, such as the name a reverse proxy or Prometheus reaches it by.
 * A host name or an IP address (IPv6 with or without brackets), without a port; kept in
 * lower case, IPv6 without brackets.
 *
 * @example
 * listenHostsValue('listen-host')(['Watch.Example.org', '[::1]']) // ['watch.example.org', '::1']
 */
export const listenHostsValue =
	(flag: string) =>
	(value: unknown): string[] => {
		const names = value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
		return names.map((name) => {
			const bare = name
				.trim()
				.toLowerCase()
				.replace(/^\[(.*)\]$/, '$1')
				.replace(/\.$/, '');
			if (!(isIPv6(bare) || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(bare))) {
				throw new UsageError(
					`--${flag} needs a host name or an IP address without a port, such as watch.example.org or 10.0.0.5 (got ${JSON.stringify(name)})`,
				);
			}
			return bare;
		});
	};
