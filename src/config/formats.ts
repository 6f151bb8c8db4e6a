import { sweepSettings, watchSettings } from './settings.js';
import { isRedisSpec, parseRedisUrl } from '../store/redis/url.js';
import { selectorProblem } from '../domain/content/rules.js';
import { headerMatchProblem, regexProblem, ruleMatchProblem } from '../domain/content/url-match.js';
import { conditionProblem } from '../domain/condition/compile.js';

/**
 * The string formats a pipeline file uses, each checked by the same code the CLI runs
 * on the matching flag (a duration by `--ttl`'s parser, a size by `--max-body`'s), so a
 * value a flag rejects is rejected in a file too. `text` says what is expected, for
 * error messages.
 *
 * @example
 * FORMATS.duration.validate('6h') // true
 */
export const FORMATS: Record<string, { validate(value: string): boolean; text: string; plural: string }> = {
	duration: { validate: accepts(sweepSettings.ttl.parse), text: 'a duration such as 30m, 6h or 2d', plural: 'durations such as 30m, 6h or 2d' },
	size: { validate: accepts(sweepSettings['max-body'].parse), text: 'a size such as 500000, 512KiB or 10MiB', plural: 'sizes' },
	header: {
		validate: (value) => accepts(sweepSettings['accept-encoding'].parse)(value) && value.trim() === value,
		text: 'printable ASCII text without leading or trailing spaces',
		plural: 'header values',
	},
	regex: { validate: (value) => regexProblem(value) === undefined, text: 'a regular expression', plural: 'regular expressions' },
	// A content rule's fields, checked as compileRules checks them, so a pipeline file's bad selector is found with its schema problems, at its line.
	selector: { validate: (value) => selectorProblem(value) === undefined, text: 'a CSS selector', plural: 'CSS selectors' },
	// A word without a dot would be read as a host no one has: refused, with what to write instead.
	'url-match': {
		validate: (value) => ruleMatchProblem(value) === undefined,
		text: 'a hostname or a regular expression',
		plural: 'hostnames or regular expressions',
	},
	'header-match': {
		validate: (value) => headerMatchProblem(value) === undefined,
		text: 'an origin, a hostname or a regular expression',
		plural: 'origins, hostnames or regular expressions',
	},
	// A --when expression, compiled as the flag's is: a syntax error is reported with its column.
	condition: { validate: (value) => conditionProblem(value) === undefined, text: 'a condition such as changed_words > 3 or price < 40', plural: 'conditions' },
	'json-pointer': {
		validate: (value) => value === '' || value.startsWith('/'),
		text: 'a JSON Pointer: empty, or starting with / (RFC 6901)',
		plural: 'JSON Pointers (RFC 6901)',
	},
	'redis-url': {
		validate: (value) => isRedisSpec(value) && parsesAsRedis(value),
		text: 'a Redis URL such as redis://127.0.0.1:6379/0?prefix=revisit:',
		plural: 'Redis URLs',
	},
	'checks-rate': {
		validate: accepts(watchSettings.rate.parse),
		text: 'a number of checks per second, minute, hour or day, such as 20/s, 5000/h or 100000/d',
		plural: 'rates of checks',
	},
	until: {
		validate: accepts(watchSettings.until.parse),
		text: 'a time in ISO 8601, or a duration from the start such as 12h or 30d',
		plural: 'times or durations',
	},
	listen: {
		validate: accepts(watchSettings.listen.parse),
		text: 'HOST:PORT, such as 127.0.0.1:9464, :9464 (every interface) or [::1]:9464',
		plural: 'listening addresses',
	},
	'listen-host': {
		validate: accepts(watchSettings['listen-host'].parse),
		text: 'a host name or an IP address without a port, such as watch.example.org or 10.0.0.5',
		plural: 'host names or IP addresses',
	},
	'http-url': { validate: (value) => /^https?:\/\//i.test(value) && URL.canParse(value), text: 'an absolute http(s) URL', plural: 'http(s) URLs' },
};

function parsesAsRedis(value: string): boolean {
	try {
		parseRedisUrl(value);
		return true;
	} catch {
		return false;
	}
}

/**
 * Why a string fails its format, in the words of what checks it (a regular expression's
 * or a selector's parser), or undefined when the format has no more to say.
 *
 * @example
 * formatProblem('selector', '.price[') // 'Expected name, found the end of the selector'
 */
export function formatProblem(format: string, value: string): string | undefined {
	if (format === 'regex') return regexProblem(value);
	if (format === 'url-match') return ruleMatchProblem(value);
	if (format === 'header-match') return headerMatchProblem(value);
	if (format === 'selector') return selectorProblem(value);
	if (format === 'condition') return conditionProblem(value);
	return undefined;
}

function accepts(coerce: ((value: unknown) => unknown) | undefined): (value: string) => boolean {
	return (value) => {
		if (!coerce) return true;
		try {
			coerce(value);
			return true;
		} catch {
			return false;
		}
	};
}
